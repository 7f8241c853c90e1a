/**
 * How values enter and leave the journal: the sandbox codec's string form
 * (types kept: Date, Map, Set, BigInt, Uint8Array, undefined…), the
 * 1,000,000-character limit, and canonical strings for argument comparison.
 */
import { canonicalizeValue, deserializeValue, serializeValue } from "../../sandbox/codec.js";
import { messageOf } from "../../shared/message-of.js";
import { err, ok, type Result } from "../../shared/result.js";

/**
 * Largest journaled value, in characters once serialized (code, arguments,
 * recorded results, step results). Replay must see exactly what the first pass
 * saw, so a larger value is never truncated: the run fails instead.
 */
export const MAX_JOURNAL_VALUE_CHARS = 1_000_000;

/** A value serialized for the journal (its codec text), or why it cannot be. */
export type JournalEncoding = Result<string>;

const ADVICE =
  "Store large or unusual data outside the run (a file, a bucket, a database row) and pass a small reference such as an id or a path instead.";

/** Serializes `value` (named `what` in messages) and enforces {@link MAX_JOURNAL_VALUE_CHARS}. */
export function encodeJournalValue(value: unknown, what: string): JournalEncoding {
  let text: string;
  try {
    text = serializeValue(value, { path: what });
  } catch (error) {
    return err(`${what} cannot be journaled: ${messageOf(error)}. ${ADVICE}`);
  }
  return checkJournalSize(text, what);
}

/** Enforces {@link MAX_JOURNAL_VALUE_CHARS} on an already serialized text. */
export function checkJournalSize(text: string, what: string): JournalEncoding {
  if (text.length > MAX_JOURNAL_VALUE_CHARS) {
    const size = text.length.toLocaleString("en-US");
    const limit = MAX_JOURNAL_VALUE_CHARS.toLocaleString("en-US");
    return err(
      `${what} is ${size} characters once serialized, over the journal's limit of ${limit}. ` +
        `It is never truncated, because a replay must see the same data. ${ADVICE}`,
    );
  }
  return ok(text);
}

/** Reads a journaled value back, types intact. Throws `CodecError` for a corrupt value. */
export function decodeJournalValue(text: string): unknown {
  return deserializeValue(text);
}

/** Canonical string of arguments (keys sorted) for divergence checks. */
export function canonicalArguments(value: unknown): string {
  return canonicalizeValue(value);
}

/** Canonical string of journaled arguments. */
export function canonicalJournaledArguments(text: string): string {
  return canonicalizeValue(deserializeValue(text));
}
