/**
 * The re-ranking of BM25 hits (`search-index.ts`): the hit's score over the best one's, plus how much of the
 * query its name and first sentence cover (a catalog term that extends a query term counting too), plus the
 * share of its name the query asks for, plus the share of the query's words its name uses as written.
 */
import type { Concept } from "./terms.js";

/** How much covering the query's words in the name and first sentence adds to a hit's (normalised) score. */
const COVERAGE_WEIGHT = 1;
/** How much a name made only of the query's words adds (`pulls_list` before `pull_request_stacks_list`). */
const NAME_PRECISION_WEIGHT = 1;
/** Scores are scaled to about 0–30, so they show as whole numbers (fewer tokens than `2.6`). */
const SCORE_SCALE = 10;

/** The terms of a document's name and first sentence, for the re-ranking. */
export interface KeyTerms {
  name: Set<string>;
  summary: Set<string>;
  /** The name's words as written (lower-case, unstemmed). */
  words: Set<string>;
}

/**
 * How much the share of the query's words found as written in the name adds: the stemmer makes `followers`
 * and `followed` one term, and the name that says `followers` is the one asked for.
 */
const SURFACE_WEIGHT = 0.2;
/** Credit of a catalog term that extends a query term (`assigne` for `assign`), relative to the term's. */
const PREFIX_CREDIT = 0.9;
/** Query terms shorter than this are not extended (`get` would reach `getaway`). */
const MIN_PREFIX_CHARS = 4;

/** The first index of `sorted` whose value is not below `value`. */
function lowerBound(sorted: string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * A concept with the catalog's terms that extend one of its terms (`assign` → `assigne`, `star` →
 * `stargaz`: derived words the stemmer keeps apart), at `PREFIX_CREDIT` of that term's weight.
 */
export function withExtensions(concept: Concept, vocabulary: string[]): Concept {
  const extended: Concept = new Map(concept);
  for (const [term, weight] of concept) {
    if (term.length < MIN_PREFIX_CHARS) continue;
    for (let index = lowerBound(vocabulary, term); index < vocabulary.length; index++) {
      const candidate = vocabulary[index]!;
      if (!candidate.startsWith(term)) break;
      if ((extended.get(candidate) ?? 0) < weight * PREFIX_CREDIT) extended.set(candidate, weight * PREFIX_CREDIT);
    }
  }
  return extended;
}

/**
 * Re-ranks BM25 hits: the score over the best hit's (0–1), plus the share of the query's
 * concepts found in the name or first sentence (each at its best synonym's weight, a term the
 * catalog's term extends counting too), plus the share of the name's terms the query asks for,
 * plus the share of the query's words the name uses as written.
 */
export function rerank(
  score: number,
  best: number,
  key: KeyTerms,
  concepts: Concept[],
  terms: Map<string, number>,
  words: string[],
): number {
  let verbatim = 0;
  for (const word of words) if (key.words.has(word)) verbatim += 1;
  const surface = words.length === 0 ? 0 : verbatim / words.length;
  let covered = 0;
  for (const concept of concepts) {
    let found = 0;
    for (const [term, weight] of concept) {
      if (weight > found && (key.name.has(term) || key.summary.has(term))) found = weight;
    }
    covered += found;
  }
  let named = 0;
  for (const term of key.name) if (terms.has(term)) named += 1;
  const coverage = concepts.length === 0 ? 0 : covered / concepts.length;
  const precision = key.name.size === 0 ? 0 : named / key.name.size;
  return (
    SCORE_SCALE *
    (score / best + COVERAGE_WEIGHT * coverage + NAME_PRECISION_WEIGHT * precision + SURFACE_WEIGHT * surface)
  );
}
