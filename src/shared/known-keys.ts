/**
 * Refuses unknown keys in an options object: a misspelt option (`requireApproval` for
 * `requiresApproval`, `scpoe` for `scope`) must not be silently ignored, because an ignored
 * option can turn a safety off. The message names the closest known key. Construction
 * options throw ({@link assertKnownKeys}); per-call requests turn {@link unknownKeyProblem}
 * into the value or the error their method returns. {@link keysOf} derives a key list the
 * compiler keeps complete.
 */
import { InvalidOptionError } from "../errors.js";
import { quoted } from "./bounded-text.js";
import { closestName } from "./closest-name.js";

/**
 * The keys of an options type as a list that cannot drift: `keysOf<Options>({ a: true, b: true })` does
 * not compile when a key of `Options` is missing from the object or the object has one `Options` lacks.
 */
export function keysOf<T extends object>(keys: { [K in keyof Required<T>]: true }): ReadonlyArray<keyof T & string> {
  return Object.keys(keys) as Array<keyof T & string>;
}

/**
 * `true` when `A` and `B` have the same keys, else `never`: `const ok: SameKeys<A, B> = true` fails to compile
 * when a key of one is missing from the other (for two types kept in step across a layer boundary).
 */
export type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never]
  ? true
  : never;

/** The first own key of `options` not in `known`, with a hint (the closest known key, or the list). */
function firstUnknownKey(options: object, known: readonly string[]): { key: string; hint: string } | undefined {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const suggestion = closestName(key, known);
    return {
      key,
      hint: suggestion === undefined ? `known keys: ${known.join(", ")}` : `did you mean "${suggestion}"?`,
    };
  }
  return undefined;
}

/**
 * Why `options` has a key not in `known`, e.g. `"scpoe" is not a known option (did you mean "scope"?)`,
 * or undefined when every key is known. The key is quoted and cut (a caller may send any key).
 */
export function unknownKeyProblem(options: object, known: readonly string[]): string | undefined {
  const unknown = firstUnknownKey(options, known);
  return unknown === undefined ? undefined : `${quoted(unknown.key)} is not a known option (${unknown.hint})`;
}

/** Throws `InvalidOptionError` at `path.<key>` for the first own key of `options` not in `known`. */
export function assertKnownKeys(options: object, known: readonly string[], path: string): void {
  const unknown = firstUnknownKey(options, known);
  if (unknown === undefined) return;
  throw new InvalidOptionError({ path: `${path}.${unknown.key}`, message: `is not a known option (${unknown.hint})` });
}
