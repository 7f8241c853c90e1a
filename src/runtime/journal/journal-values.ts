/**
 * How values enter and leave the journal: the sandbox codec's string form
 * (types kept: Date, Map, Set, BigInt, Uint8Array, undefined…), the
 * 1,000,000-character limit, and canonical strings for argument comparison.
 */
import { CodecError, canonicalizeValue, deserializeValue, serializeValue } from "../../sandbox/codec.js";
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

/**
 * Serializes `value` (named `what` in messages) and enforces {@link MAX_JOURNAL_VALUE_CHARS}. Encoding stops at the
 * limit, whatever the value's shape: a connector's `new Array(1e9)` costs it nothing and is refused at once.
 */
export function encodeJournalValue(value: unknown, what: string): JournalEncoding {
  let text: string;
  try {
    text = serializeValue(value, { path: what, maxChars: MAX_JOURNAL_VALUE_CHARS });
  } catch (error) {
    if (CodecError.isInstance(error) && (error as CodecError).overLimit) return err(overLimitMessage(what, "over"));
    return err(`${what} cannot be journaled: ${messageOf(error)}. ${ADVICE}`);
  }
  return checkJournalSize(text, what);
}

/** `size`: the characters counted, or "over" when encoding stopped at the limit. */
function overLimitMessage(what: string, size: number | "over"): string {
  const limit = MAX_JOURNAL_VALUE_CHARS.toLocaleString("en-US");
  const measured =
    size === "over"
      ? `over the journal's limit of ${limit} characters once serialized (encoding stopped there)`
      : `${size.toLocaleString("en-US")} characters once serialized, over the journal's limit of ${limit}`;
  return `${what} is ${measured}. It is never truncated, because a replay must see the same data. ${ADVICE}`;
}

/** Enforces {@link MAX_JOURNAL_VALUE_CHARS} on an already serialized text. */
export function checkJournalSize(text: string, what: string): JournalEncoding {
  if (text.length > MAX_JOURNAL_VALUE_CHARS) return err(overLimitMessage(what, text.length));
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
