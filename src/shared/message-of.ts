/**
 * The message of a thrown value, for outputs a model reads: an Error's message, a string as is, anything else
 * as JSON when it has a JSON form. The one definition every layer uses. It never throws and never walks more
 * than a bounded part of the value: what a connector or a callback throws is not trusted (a `message` getter
 * that throws, a revoked proxy, an object whose `toJSON` or `toString` throws, a `new Array(1e9)`).
 */

/** Longest JSON form quoted for a thrown value that is not an Error; past it the value is described, not quoted. */
const MAX_QUOTED_CHARS = 10_000;

/** What a thrown value whose message cannot be read gives. */
export const UNREADABLE_MESSAGE = "an error whose message could not be read (reading it threw)";

const TOO_LONG = Symbol("too long");

/** The message of `error`; {@link UNREADABLE_MESSAGE} when reading it throws. */
export function messageOf(error: unknown): string {
  try {
    return readMessage(error);
  } catch {
    return UNREADABLE_MESSAGE;
  }
}

function readMessage(error: unknown): string {
  if (typeof error === "string") return error;
  if (error === null || (typeof error !== "object" && typeof error !== "function")) return String(error);
  if (error instanceof Error) {
    const message: unknown = error.message;
    return typeof message === "string" ? message : String(message);
  }
  // An array's text (`join`) walks every element; one without a JSON form is only described.
  return quoted(error) ?? (Array.isArray(error) ? "a thrown array that has no JSON form" : String(error));
}

/** The JSON form of `value`, or undefined when it has none; stops (and describes the value) past the bound. */
function quoted(value: object): string | undefined {
  if (Array.isArray(value) && value.length > MAX_QUOTED_CHARS) return tooLarge(value);
  let budget = MAX_QUOTED_CHARS;
  let text: string | undefined;
  try {
    // The replacer runs once per member (a hole included), so the walk ends within the bound whatever the shape.
    text = JSON.stringify(value, (key: string, member: unknown) => {
      budget -= key.length + (typeof member === "string" ? member.length : 4);
      if (budget < 0) throw TOO_LONG;
      return member;
    });
  } catch (error) {
    // No JSON form (a cycle, a BigInt, a `toJSON` that throws): the caller falls back to `String(value)`.
    if (error !== TOO_LONG) return undefined;
    return tooLarge(value);
  }
  return text;
}

function tooLarge(value: object): string {
  const what = Array.isArray(value) ? "array" : "object";
  return `a thrown ${what} too large to quote (over ${MAX_QUOTED_CHARS.toLocaleString("en-US")} characters)`;
}

/**
 * A plain `Error` carrying what can be read of `error` (its message, and its name when it is an Error), for code
 * that passes a thrown value on: the value itself is never touched again, so nothing downstream (progress,
 * tracing, the sandbox's reply) can be made to throw by it.
 */
export function readableError(error: unknown): Error {
  const readable = new Error(messageOf(error));
  try {
    const name: unknown = error instanceof Error ? error.name : undefined;
    if (typeof name === "string" && name !== "") readable.name = name.slice(0, 100);
  } catch {
    // The name cannot be read either: a plain `Error` it is.
  }
  return readable;
}
