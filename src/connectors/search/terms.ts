/**
 * The words search compares: a name or text split into words (on `_`, `-`, `.`, spaces and
 * camelCase), short forms read as the words they stand for, stop words dropped, and each word
 * reduced to its Porter stem (`creating`, `created` and `creates` all become `creat`). Queries
 * also search the thesaurus' verb and domain synonyms of their words, at a lower weight.
 */
import { stemmer } from "stemmer";
import {
  ABBREVIATIONS,
  DOMAIN_SYNONYMS,
  DOMAIN_WEIGHT,
  VERB_SYNONYMS,
  VERB_WEIGHT,
  REVERSAL_WEIGHT,
  REVERSING_VERBS,
} from "./thesaurus.js";

/** Words too common to rank by (`create an issue` ranks on `create` and `issue`). */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the of to in on for by with and or from is are be me my i all any this that it its into as at " +
    "these those some can do does how what which who when where please want need via using"
  ).split(" "),
);

function own(table: Readonly<Record<string, string>>, key: string): string | undefined {
  // Own keys only: "constructor" or "__proto__" must not find Object.prototype members.
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** `repos` → `repo`, so plural short forms and plural synonyms are found too. */
function singular(word: string): string {
  return word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word;
}

/** Stems already computed (a catalog's vocabulary is small; cleared when it grows past the bound). */
const STEMS = new Map<string, string>();
const MAX_CACHED_STEMS = 50_000;

/** The stem of one lower-case word (digits and very short words as they are). */
function stem(word: string): string {
  if (word.length <= 2 || /\d/.test(word)) return word;
  let stemmed = STEMS.get(word);
  if (stemmed === undefined) {
    if (STEMS.size >= MAX_CACHED_STEMS) STEMS.clear();
    stemmed = stemmer(word);
    STEMS.set(word, stemmed);
  }
  return stemmed;
}

/** The terms one lower-case word stands for: its short form expanded, stop words dropped, stemmed. */
export function termsOfWord(word: string): string[] {
  // `prs`, `repos`: a plural short form is the short form.
  const expansion =
    own(ABBREVIATIONS, word) ?? (word.endsWith("s") ? own(ABBREVIATIONS, word.slice(0, -1)) : undefined);
  const words = expansion === undefined ? [word] : expansion.split(" ");
  return words.filter((each) => !STOP_WORDS.has(each)).map(stem);
}

/** What one query word asks for: its own terms (weight 1) and its synonyms' terms (lower weights). */
export type Concept = Map<string, number>;

function addTerms(concept: Concept, words: string | undefined, weight: number): void {
  if (words === undefined) return;
  for (const word of words.split(" ")) {
    for (const term of termsOfWord(word)) {
      if ((concept.get(term) ?? 0) < weight) concept.set(term, weight);
    }
  }
}

/** Whether the catalog uses a term in a name or first sentence (a word it uses is never expanded). */
type KnownTerm = (term: string) => boolean;

function synonymsOf(concept: Concept, key: string): void {
  addTerms(concept, own(VERB_SYNONYMS, key) ?? own(VERB_SYNONYMS, singular(key)), VERB_WEIGHT);
  addTerms(concept, own(DOMAIN_SYNONYMS, key) ?? own(DOMAIN_SYNONYMS, singular(key)), DOMAIN_WEIGHT);
}

/**
 * Reversal: "stop following", "remove my star" name the `un-` operation (`unfollow`, `unstar`). When a
 * reversing verb comes before a word (stop words between) and the catalog uses the word's `un-` form, the
 * word's concept asks for the `un-` form first and its own terms at `REVERSAL_WEIGHT` of their weight.
 */
function reversalOf(concept: Concept, words: string[], index: number, known: KnownTerm): void {
  for (let back = index - 1; back >= 0; back--) {
    const before = words[back]!;
    if (REVERSING_VERBS.split(" ").includes(before)) {
      const reversed = termsOfWord(`un${words[index]!}`);
      if (reversed.length === 0 || !reversed.every(known)) return;
      for (const [term, weight] of concept) concept.set(term, weight * REVERSAL_WEIGHT);
      for (const term of reversed) concept.set(term, 1);
      return;
    }
    if (termsOfWord(before).length > 0) return;
  }
}

/**
 * The concepts of a query's words (lower-case, in order): one per word that is not a stop word
 * or has a synonym, and one per two-word phrase the thesaurus knows (`chat room`, `text box`).
 * `known` (whether the catalog uses a term) decides the reversal of a word after a reversing verb.
 */
export function queryConcepts(words: string[], known: KnownTerm = () => false): Concept[] {
  const concepts: Concept[] = [];
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    const concept: Concept = new Map();
    addTerms(concept, word, 1);
    synonymsOf(concept, word);
    reversalOf(concept, words, index, known);
    if (concept.size > 0) concepts.push(concept);
    const next = words[index + 1];
    if (next !== undefined) {
      const phrase: Concept = new Map();
      synonymsOf(phrase, `${word} ${next}`);
      if (phrase.size > 0) concepts.push(phrase);
    }
  }
  return concepts;
}

/** Every term of the concepts with its highest weight. */
export function weightedTerms(concepts: Concept[]): Map<string, number> {
  const terms = new Map<string, number>();
  for (const concept of concepts) {
    for (const [term, weight] of concept) if ((terms.get(term) ?? 0) < weight) terms.set(term, weight);
  }
  return terms;
}
