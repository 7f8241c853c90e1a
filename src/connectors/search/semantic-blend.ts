/**
 * Blending vector similarity (from an embedding model, computed by the caller) with the lexical score:
 * both are brought to 0–1 over the query's candidates (lexical: over the best hit; similarity: between the
 * least and most similar document) and mixed at `SEMANTIC_WEIGHT`. Candidates are the lexical hits plus the
 * documents most similar to the query, so a query that shares no word with a method still finds it.
 */

/** Share of the blended score that comes from similarity (the lexical score has the rest). */
export const SEMANTIC_WEIGHT = 0.5;
/** Documents that join the lexical hits by similarity alone: as many as the largest search limit. */
export const SEMANTIC_CANDIDATES = 50;
/** Blended scores are scaled to 0–30, like lexical ones, so they show as whole numbers. */
const BLENDED_SCORE_SCALE = 30;
/** The text embedded for a method or snippet is cut to this many characters (a bound on embedding tokens). */
export const MAX_EMBEDDING_TEXT_CHARS = 1_000;

/** Cosine similarity of two vectors (0 when either is all zeros or their lengths differ). */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index++) {
    const x = a[index]!;
    const y = b[index]!;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** What a method or snippet is embedded as: its path, description and parameter names, cut to the bound. */
export function embeddingText(document: { path: string; description?: string; params: string[] }): string {
  const parts = [document.path];
  if (document.description !== undefined && document.description.trim() !== "") parts.push(document.description.trim());
  if (document.params.length > 0) parts.push(`Parameters: ${document.params.join(", ")}`);
  const text = parts.join("\n");
  return text.length > MAX_EMBEDDING_TEXT_CHARS ? text.slice(0, MAX_EMBEDDING_TEXT_CHARS) : text;
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
  const bySimilarity = [...similarity].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [path] of bySimilarity.slice(0, SEMANTIC_CANDIDATES)) candidates.add(path);
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
