/**
 * The message of a thrown value, for outputs a model reads: an Error's message, a string as is, anything else
 * as JSON when it has a JSON form. The one definition every layer uses.
 */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
