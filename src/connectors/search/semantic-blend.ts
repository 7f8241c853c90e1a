/**
 * Blending vector similarity (from an embedding model, computed by the caller) with the lexical score, only for a
 * query whose lexical ranking leaves its best hit without a clear lead (`lexicallyDecided`): a query that names what
 * it wants keeps its lexical ranking and costs no embedding call. Otherwise both scores are brought to 0–1 over the
 * query's candidates (lexical: over the best hit; similarity: between the least and most similar document) and mixed
 * at `SEMANTIC_WEIGHT`. Candidates are the lexical hits plus the documents most similar to the query, so a query
 * that shares no word with a method still finds it. The weight and the lead were chosen on the development queries
 * with a real sentence encoder (`bench/search-dev.ts --encoder`; `docs/decisions/search-vectors.md`).
 */

/** Share of the blended score that comes from similarity (the lexical score has the rest). */
const SEMANTIC_WEIGHT = 0.4;
/**
 * The lead (best lexical score minus the second, over the best) from which the lexical ranking is trusted as it is.
 * Below it the top hits are close enough that similarity may reorder them.
 */
export const DECIDED_LEAD = 0.1;
/** Documents that join the lexical hits by similarity alone: as many as the largest search limit. */
const SEMANTIC_CANDIDATES = 50;
/** Blended scores are scaled to 0–30, like lexical ones, so they show as whole numbers. */
const BLENDED_SCORE_SCALE = 30;

/**
 * Whether lexical scores (unrounded, any order) settle a query: its best hit leads the second by at least
 * `DECIDED_LEAD` of its score (a single hit leads by all of it). No hit, or a near tie, is not decided.
 */
export function lexicallyDecided(scores: Iterable<number>): boolean {
  let best = 0;
  let second = 0;
  for (const score of scores) {
    if (score > best) [best, second] = [score, best];
    else if (score > second) second = score;
  }
  return best > 0 && (best - second) / best >= DECIDED_LEAD;
}

/** `vector` scaled to length 1 (a zero vector stays zero), so that cosine similarity is a dot product. */
export function unitVector(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm === 0) return vector;
  const scale = 1 / Math.sqrt(norm);
  return vector.map((value) => value * scale);
}

/** Dot product of two vectors (0 when their lengths differ); of unit vectors, their cosine similarity. */
export function dotProduct(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  for (let index = 0; index < a.length; index++) dot += a[index]! * b[index]!;
  return dot;
}

/** Whether `a` ranks before `b` by similarity: higher first, then by path. */
function moreSimilar(a: [string, number], b: [string, number]): boolean {
  return a[1] > b[1] || (a[1] === b[1] && a[0] < b[0]);
}

/** The `count` paths most similar to the query, most similar first (ties by path), without sorting every document. */
export function mostSimilar(similarity: ReadonlyMap<string, number>, count: number): string[] {
  const top: Array<[string, number]> = [];
  for (const entry of similarity) {
    if (count <= 0) break;
    if (top.length === count) {
      if (!moreSimilar(entry, top[count - 1]!)) continue;
      top.pop();
    }
    let index = top.length;
    while (index > 0 && moreSimilar(entry, top[index - 1]!)) index--;
    top.splice(index, 0, entry);
  }
  return top.map(([path]) => path);
}

/**
 * Blended scores by path: `lexical` (path → unrounded lexical score of each hit) and `similarity`
 * (path → cosine similarity to the query, for the documents that have a vector).
 */
export function blendScores(
  lexical: ReadonlyMap<string, number>,
  similarity: ReadonlyMap<string, number>,
): Map<string, number> {
  let bestLexical = 0;
  for (const score of lexical.values()) bestLexical = Math.max(bestLexical, score);
  let least = Infinity;
  let most = -Infinity;
  for (const value of similarity.values()) {
    least = Math.min(least, value);
    most = Math.max(most, value);
  }
  const spread = most - least;
  const candidates = new Set(lexical.keys());
  for (const path of mostSimilar(similarity, SEMANTIC_CANDIDATES)) candidates.add(path);
  const blended = new Map<string, number>();
  for (const path of candidates) {
    const lexicalPart = bestLexical > 0 ? (lexical.get(path) ?? 0) / bestLexical : 0;
    const value = similarity.get(path);
    const semanticPart = value === undefined || !(spread > 0) ? 0 : (value - least) / spread;
    // A document that neither matches a word nor is closer than the least similar one is not a hit.
    if (!lexical.has(path) && semanticPart === 0) continue;
    blended.set(path, BLENDED_SCORE_SCALE * ((1 - SEMANTIC_WEIGHT) * lexicalPart + SEMANTIC_WEIGHT * semanticPart));
  }
  return blended;
}
