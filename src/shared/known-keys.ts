/**
 * Refuses unknown keys in an options object: a misspelt option (`needsApproval` for
 * `needsApproval`, `scpoe` for `scope`) must not be silently ignored, because an ignored
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

/**
 * Keys renamed before the first release, by their new name: the approval policy takes the AI SDK's word everywhere.
 * No alias is kept, so an old key is refused with the new one named (never silently ignored: it could turn off an
 * approval).
 */
const RENAMED_KEYS: Readonly<Record<string, string>> = {
  requiresApproval: "needsApproval",
  requireApproval: "needsApproval",
};

/** The new name of `key` when it was renamed to a key of `known`. */
function renamedTo(key: string, known: readonly string[]): string | undefined {
  const renamed = Object.hasOwn(RENAMED_KEYS, key) ? RENAMED_KEYS[key] : undefined;
  return renamed !== undefined && known.includes(renamed) ? renamed : undefined;
}

/** Keys a caller never sees in a list of known keys: test seams stay out of messages. */
function isListed(key: string): boolean {
  return !key.startsWith("_");
}

/** The first own key of `options` not in `known`, with a hint (the closest known key, or the list). */
function firstUnknownKey(options: object, known: readonly string[]): { key: string; hint: string } | undefined {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const renamed = renamedTo(key, known);
    if (renamed !== undefined) return { key, hint: `renamed: use "${renamed}"` };
    const suggestion = closestName(key, known.filter(isListed));
    return {
      key,
      hint:
        suggestion === undefined ? `known keys: ${known.filter(isListed).join(", ")}` : `did you mean "${suggestion}"?`,
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

/**
 * Throws `InvalidOptionError` at `path.<key>` when `value` (an object whose other keys are not checked, such as a
 * hand-written connector method) has a key that was renamed to one of `known`.
 */
export function assertNoRenamedKeys(value: object, known: readonly string[], path: string): void {
  for (const key of Object.keys(value)) {
    const renamed = known.includes(key) ? undefined : renamedTo(key, known);
    if (renamed !== undefined)
      throw new InvalidOptionError({
        path: `${path}.${key}`,
        message: `is not a known option (renamed: use "${renamed}")`,
      });
  }
}

/** Throws `InvalidOptionError` at `path.<key>` for the first own key of `options` not in `known`. */
export function assertKnownKeys(options: object, known: readonly string[], path: string): void {
  const unknown = firstUnknownKey(options, known);
  if (unknown === undefined) return;
  throw new InvalidOptionError({ path: `${path}.${unknown.key}`, message: `is not a known option (${unknown.hint})` });
}
