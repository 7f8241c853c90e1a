/**
 * The generated WordNet expansions (`wordnet-expansions.ts`) as a lookup: an everyday word or two-word
 * phrase, by the stems of its words (`forgetting` finds `forget`), to the API words WordNet lists it as
 * a synonym of. Parsed once, on the first query that needs it.
 */
import { stemmer } from "stemmer";
import { WORDNET_EXPANSIONS } from "./wordnet-expansions.js";

let table: Map<string, string> | undefined;

function keyOf(words: string): string {
  return words
    .split(" ")
    .map((word) => stemmer(word))
    .join(" ");
}

/** The data's lines as a map (keys are stemmed already, by the generator). */
function parse(): Map<string, string> {
  const parsed = new Map<string, string>();
  for (const line of WORDNET_EXPANSIONS.split("\n")) {
    const colon = line.indexOf(":");
    parsed.set(line.slice(0, colon), line.slice(colon + 1));
  }
  return parsed;
}

/** The API words (space-separated) an everyday word or two-word phrase (lower-case) stands for, if any. */
export function expansionOf(words: string): string | undefined {
  table ??= parse();
  return table.get(keyOf(words));
}
