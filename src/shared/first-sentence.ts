/**
 * The first sentence (or, without one, the first line) of a description: what search results and the tool
 * description's namespace hints show of a longer text.
 */
export function firstSentence(text: string): string {
  const line = text.trim().split(/\r?\n/)[0] ?? "";
  return /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
}
