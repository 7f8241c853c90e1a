/**
 * `codemode.search` and the handle's `search` over a catalog: lexical, or — with an embedding model
 * (`search.embeddingModel`) — blended with vector similarity when the lexical ranking leaves the query open (its
 * best hit without a clear lead, or no hit: `Catalog.isLexicallyDecided`). A decided query embeds nothing and reads
 * no vector. Method and snippet vectors are computed once, on the first open query: kept in memory for the
 * runtime's life and cached in the store by model and text hash, so a cold invocation reads them instead of
 * embedding again; only texts never seen (a changed description, a new snippet) are embedded, in one batch. An
 * open query is embedded once per search. A failing embedding model or store never fails a search: it ranks
 * lexically, and the next search tries again.
 */
import { nodeCrypto } from "../../shared/node-crypto.js";
import type { Catalog } from "./catalog.js";
import { MAX_QUERY_CHARS } from "./search-index.js";
import { dotProduct, unitVector } from "./semantic-blend.js";
import type { SearchOutput } from "../types.js";

/** A search vector: the embedding of one text (by its hash) under one model. */
interface SearchVector {
  textHash: string;
  vector: Float32Array;
}

/**
 * Where vectors outlive the process: the runtime's journal store (`EmbeddingStore`, which satisfies this), so a
 * cold invocation reads them instead of embedding again.
 */
export interface VectorCache {
  /** The cached vectors of `model` among `textHashes`; hashes without one are left out. */
  searchVectors(model: string, textHashes: string[]): Promise<SearchVector[]>;
  /** Caches vectors of `model`, replacing a cached one of the same hash. */
  saveSearchVectors(model: string, vectors: SearchVector[]): Promise<void>;
}

/** What search needs of an embedding model (`src/ai` makes one from an AI SDK `EmbeddingModel`). */
export interface SearchEmbedder {
  /** Names the model (provider and model id): cached vectors are kept per model. */
  readonly model: string;
  /** One vector per value, in order. */
  embed(values: string[]): Promise<number[][]>;
}

/** Searches `catalog`; resolves, never rejects. */
export type CatalogSearch = (catalog: Catalog, query: string, options?: { limit?: number }) => Promise<SearchOutput>;

/** Vectors kept in memory per runtime; past this many the memory copy is dropped (the store keeps them). */
const MAX_VECTORS_IN_MEMORY = 20_000;

/** The key a text's vector is cached under (with the model): the SHA-256 of the text, hex. */
function textHash(text: string): string {
  return nodeCrypto().createHash("sha256").update(text).digest("hex");
}

function toVectors(embeddings: unknown, count: number): Float32Array[] {
  if (!Array.isArray(embeddings) || embeddings.length !== count) {
    throw new Error(
      `the embedding model returned ${Array.isArray(embeddings) ? embeddings.length : "no"} vectors for ${count} values`,
    );
  }
  return embeddings.map((embedding: unknown) => {
    if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((value) => Number.isFinite(value))) {
      throw new Error("the embedding model returned a vector that is not a non-empty list of finite numbers");
    }
    return Float32Array.from(embedding as number[]);
  });
}

function scaledToUnit({ textHash: hash, vector }: SearchVector): SearchVector {
  return { textHash: hash, vector: unitVector(vector) };
}

/** Lexical search only: what a runtime without `search.embeddingModel` does (and calls nothing). */
const lexicalSearch: CatalogSearch = async (catalog, query, options) => catalog.search(query, options);

/** The search of a runtime: lexical without an embedder, blended with one. */
export function createCatalogSearch({
  embedder,
  store,
}: {
  embedder: SearchEmbedder | undefined;
  store: VectorCache;
}): CatalogSearch {
  if (embedder === undefined) return lexicalSearch;
  const { model } = embedder;
  const embed = (values: string[]): Promise<number[][]> => embedder.embed(values);
  const known = new Map<string, Float32Array>();
  const byCatalog = new WeakMap<Catalog, Promise<Map<string, Float32Array>>>();

  function remember(vectors: SearchVector[]): void {
    if (known.size + vectors.length > MAX_VECTORS_IN_MEMORY) known.clear();
    for (const { textHash: hash, vector } of vectors) known.set(hash, vector);
  }

  /**
   * Path → unit vector for every method and snippet of the catalog: from memory, else the store, else the model.
   * The store keeps the model's vectors as they are; memory keeps them scaled to length 1.
   */
  async function documentVectors(catalog: Catalog): Promise<Map<string, Float32Array>> {
    const hashes = new Map<string, string>();
    const textsByHash = new Map<string, string>();
    for (const [path, text] of catalog.embeddingTexts()) {
      const hash = textHash(text);
      hashes.set(path, hash);
      textsByHash.set(hash, text);
    }
    // This catalog's vectors, kept apart from `known` (which may be cleared while they are gathered).
    const vectors = new Map<string, Float32Array>();
    for (const hash of textsByHash.keys()) {
      const vector = known.get(hash);
      if (vector !== undefined) vectors.set(hash, vector);
    }
    const notInMemory = [...textsByHash.keys()].filter((hash) => !vectors.has(hash));
    if (notInMemory.length > 0) {
      const cached = (await store.searchVectors(model, notInMemory)).map(scaledToUnit);
      for (const { textHash: hash, vector } of cached) vectors.set(hash, vector);
      const missing = notInMemory.filter((hash) => !vectors.has(hash));
      let embedded: SearchVector[] = [];
      if (missing.length > 0) {
        const texts = missing.map((hash) => textsByHash.get(hash)!);
        const fresh = toVectors(await embed(texts), texts.length);
        const raw = missing.map((hash, index) => ({ textHash: hash, vector: fresh[index]! }));
        embedded = raw.map(scaledToUnit);
        for (const { textHash: hash, vector } of embedded) vectors.set(hash, vector);
        // Not cached is not fatal: the vectors serve this process, and a later invocation embeds them again.
        await store.saveSearchVectors(model, raw).catch(() => undefined);
      }
      remember([...cached, ...embedded]);
    }
    const byPath = new Map<string, Float32Array>();
    for (const [path, hash] of hashes) byPath.set(path, vectors.get(hash)!);
    return byPath;
  }

  function vectorsOf(catalog: Catalog): Promise<Map<string, Float32Array>> {
    let vectors = byCatalog.get(catalog);
    if (vectors === undefined) {
      vectors = documentVectors(catalog);
      byCatalog.set(catalog, vectors);
      // A failure is not remembered: the next search tries again.
      vectors.catch(() => byCatalog.delete(catalog));
    }
    return vectors;
  }

  return async (catalog, query, options) => {
    if (typeof query !== "string" || catalog.isLexicallyDecided(query)) return catalog.search(query, options);
    try {
      const [documents, queryVectors] = await Promise.all([
        vectorsOf(catalog),
        embed([query.slice(0, MAX_QUERY_CHARS)]).then((embeddings) => toVectors(embeddings, 1)),
      ]);
      const queryVector = unitVector(queryVectors[0]!);
      const similarity = new Map<string, number>();
      // Unit vectors: cosine similarity is their dot product.
      for (const [path, vector] of documents) similarity.set(path, dotProduct(queryVector, vector));
      return catalog.search(query, { ...(options?.limit === undefined ? {} : { limit: options.limit }), similarity });
    } catch {
      return catalog.search(query, options);
    }
  };
}
