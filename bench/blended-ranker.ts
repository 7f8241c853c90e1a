/**
 * Bench only: the runtime's blended search (`search: { embeddingModel }`, `src/connectors/search/catalog-search.ts`) as a
 * ranker over a set of connectors, with any AI SDK embedding model: the same embedding texts, lexical gate, query
 * embedding, cosine and blend as a runtime, with the store's vector cache held in memory (the bench measures
 * ranking, not the libSQL round trip). It counts what it embeds: method texts and queries.
 */
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { resolveSearchOptions } from "../src/ai/search-options.js";
import { createCatalog } from "../src/connectors/search/catalog.js";
import type { Connector } from "../src/connectors/types.js";
import { createCatalogSearch } from "../src/connectors/search/catalog-search.js";
import type { EmbeddingStore, SearchVector } from "../src/runtime/journal/journal-store.js";

/** The store's vector cache, in memory. */
export function memoryVectorStore(): EmbeddingStore {
  const rows = new Map<string, SearchVector>();
  return {
    searchVectors: async (model, hashes) => hashes.flatMap((hash) => rows.get(`${model}\0${hash}`) ?? []),
    saveSearchVectors: async (model, vectors) => {
      for (const vector of vectors) rows.set(`${model}\0${vector.textHash}`, vector);
    },
  };
}

/** What a blended ranker embedded so far. */
export interface EmbeddingCounts {
  /** Queries embedded (open ones: a query the lexical ranking settles is not). */
  queries: number;
  /** Method and snippet texts embedded (once per catalog: then cached). */
  documents: number;
  /** Milliseconds spent embedding method and snippet texts. */
  documentsMs: number;
}

/** A ranker (paths, at most 50) over `connectors` with `model`, and what it embedded. */
export function blendedRanker(
  connectors: Record<string, Connector>,
  model: EmbeddingModelV4,
): { rank: (query: string) => Promise<string[]>; counts: EmbeddingCounts } {
  const catalog = createCatalog({ connectors, snippets: [] });
  const embedder = resolveSearchOptions({ embeddingModel: model })!;
  const counts: EmbeddingCounts = { queries: 0, documents: 0, documentsMs: 0 };
  const queryTexts = new Set<string>();
  const search = createCatalogSearch({
    embedder: {
      model: embedder.model,
      embed: async (values) => {
        if (values.length === 1 && queryTexts.has(values[0]!)) {
          counts.queries += 1;
          return embedder.embed(values);
        }
        const started = performance.now();
        const vectors = await embedder.embed(values);
        counts.documents += values.length;
        counts.documentsMs += performance.now() - started;
        return vectors;
      },
    },
    store: memoryVectorStore(),
  });
  return {
    rank: async (query) => {
      queryTexts.add(query);
      return (await search(catalog, query, { limit: 50 })).results.map((result) => result.path);
    },
    counts,
  };
}
