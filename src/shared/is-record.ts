/**
 * The one test for "a plain key/value object" (not null, not an array) used wherever unknown input (options,
 * documents, arguments) is inspected.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
