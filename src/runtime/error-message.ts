/** The message of a thrown value, for outputs a model reads. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
