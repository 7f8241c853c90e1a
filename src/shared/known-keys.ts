/**
 * Refuses unknown keys in an options object at construction: a misspelt option
 * (`requireApproval` for `requiresApproval`) must not be silently ignored, because an
 * ignored policy can turn a safety off. The error names the path and the closest known key.
 */
import { InvalidOptionError } from "../errors.js";
import { closestName } from "./closest-name.js";

/** Throws `InvalidOptionError` at `path.<key>` for the first own key of `options` not in `known`. */
export function assertKnownKeys(options: object, known: readonly string[], path: string): void {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const suggestion = closestName(key, known);
    const hint = suggestion === undefined ? `known keys: ${known.join(", ")}` : `did you mean "${suggestion}"?`;
    throw new InvalidOptionError({ path: `${path}.${key}`, message: `is not a known option (${hint})` });
  }
}
