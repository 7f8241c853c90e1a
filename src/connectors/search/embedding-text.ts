/**
 * What a method or snippet is embedded as for `search: { embeddingModel }`: the words of its name and the first
 * sentence of its description (`issues list for repo. List repository issues.`). Chosen on the development queries with a
 * real sentence encoder (`bench/search-dev.ts --encoder`): the whole description, path and parameter names that were
 * embedded before ranked worse (a long description's boilerplate dilutes its meaning) and cost ~8× the encoder time.
 */
import { summarise, tokenize } from "./search-index.js";

/** The text embedded for a method or snippet is cut to this many characters (a bound on embedding tokens). */
export const MAX_EMBEDDING_TEXT_CHARS = 1_000;

/** The name's words and the description's first sentence, cut to the bound. */
export function embeddingText(document: { method: string; description?: string }): string {
  const name = tokenize(document.method).join(" ");
  const summary = summarise(document.description);
  const text = summary === undefined ? name : `${name}. ${summary}`;
  return text.length > MAX_EMBEDDING_TEXT_CHARS ? text.slice(0, MAX_EMBEDDING_TEXT_CHARS) : text;
}
