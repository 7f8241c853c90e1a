/**
 * A deterministic embedding model for tests: each dimension is a concept (a list of words), and a text's
 * vector counts the concept words it contains, plus one constant dimension so no vector is all zeros.
 * Texts about the same concept are close whatever words they use; every call and its values are recorded.
 */
import { MockEmbeddingModelV4 } from "ai/test";

/** Concept name → the words that mean it. */
export type Concepts = Record<string, string[]>;

/** The vector of `text` under `concepts` (lower-cased substring counts), plus the constant dimension. */
export function conceptVector(text: string, concepts: Concepts): number[] {
  const lower = text.toLowerCase();
  const vector = Object.values(concepts).map((words) =>
    words.reduce((sum, word) => sum + lower.split(word).length - 1, 0),
  );
  return [...vector, 0.1];
}

/** A mock AI SDK embedding model over `concepts`; `calls` lists the values of each `doEmbed` call. */
export function conceptEmbeddingModel(
  concepts: Concepts,
  { modelId = "concepts-1", fail = false } = {},
): {
  model: MockEmbeddingModelV4;
  calls: string[][];
} {
  const calls: string[][] = [];
  const model = new MockEmbeddingModelV4({
    provider: "test",
    modelId,
    maxEmbeddingsPerCall: 1_000,
    doEmbed: async ({ values }) => {
      calls.push([...values]);
      if (fail) throw new Error("embedding service unavailable");
      return { embeddings: values.map((value) => conceptVector(value, concepts)), warnings: [] };
    },
  });
  return { model, calls };
}
