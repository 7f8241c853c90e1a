/**
 * Messages a program (and so the model) reads when a value or a call cannot cross the boundary:
 * a value over the size bound, a method a namespace does not have.
 */
import { closestName } from "../shared/closest-name.js";
import { memberPath } from "./codec-validation.js";

/** Methods listed at most in a message. */
const MAX_LISTED = 20;

/** The message for reading `key`, which `binding` does not have: the methods it has and the closest name. */
export function describeMissing(
  binding: { global: string; functions: string[]; unavailable?: string } | undefined,
  key: string,
): string {
  if (binding === undefined) return "not a function";
  const shown = key.length > 80 ? `${key.slice(0, 80)}…` : key;
  const names = binding.functions;
  const listed =
    names.slice(0, MAX_LISTED).join(", ") + (names.length > MAX_LISTED ? `, … (${names.length} in all)` : "");
  const suggestion = closestName(key, names);
  const hint = suggestion === undefined ? "" : ` Did you mean ${memberPath(binding.global, suggestion)}?`;
  const none = binding.unavailable === undefined ? "it has no methods" : `it has no methods: ${binding.unavailable}`;
  const known = names.length === 0 ? none : `its methods: ${listed}`;
  return `${memberPath(binding.global, shown)} is not a function: ${binding.global} has no method ${JSON.stringify(shown)}.${hint} (${known})`;
}

/** The message for a value over the size bound. */
export function tooLongMessage(
  what: string,
  chars: number,
  max: number,
  advice = "Pass a smaller value: a page of the data, or an id or a path to it.",
  bound = "maxValueChars, the journal's limit",
): string {
  return `${what} would be ${chars.toLocaleString("en-US")} characters once encoded, over the limit of ${max.toLocaleString("en-US")} (${bound}). ${advice}`;
}

/**
 * What a binding receives for arguments too large to cross: a value whose every use throws a
 * `CodecError` saying so (the sandbox sent only the size). Encoding it (the runtime journals the
 * arguments first) fails with that error, so the durable runtime ends the run with kind `limit`;
 * a plain binding that reads it fails the call with the same message.
 */
export function oversizedArguments(error: Error): object {
  const refuse = (): never => {
    throw error;
  };
  return new Proxy(Object.create(null) as object, {
    get: refuse,
    has: refuse,
    ownKeys: refuse,
    getPrototypeOf: refuse,
    getOwnPropertyDescriptor: refuse,
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
  });
}
