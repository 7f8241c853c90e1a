/**
 * The runtime option `search: { embeddingModel }`: any AI SDK embedding model (or a gateway
 * model id), turned into the runtime's `SearchEmbedder`. Only `src/ai` imports `ai`, so this is resolved here.
 */
import { embedMany, type EmbeddingModel } from "ai";
import { InvalidOptionError } from "../errors.js";
import type { SearchEmbedder } from "../connectors/search/catalog-search.js";
import { isRecord } from "../shared/is-record.js";
import { declareOptions, option } from "../shared/options/declare-options.js";

/** Options of `codemode.search` and `runtime.search`. */
export interface CodemodeSearchOptions {
  /**
   * Ranks by meaning too: an AI SDK embedding model (e.g. `openai.embedding("text-embedding-3-small")`)
   * whose vector similarity is blended with the lexical score when the lexical ranking leaves a query open (its
   * best hit less than 10% ahead of the next, or no hit); such a query is embedded (one call), a clearly decided
   * one is not. Method and snippet vectors (name words and first sentence) are computed once, on the first open
   * query, and cached in the store. @default undefined (lexical only)
   */
  embeddingModel?: EmbeddingModel;
}

/** How each option of {@link CodemodeSearchOptions} is checked. */
const SEARCH_OPTIONS = declareOptions<CodemodeSearchOptions>()({
  embeddingModel: option((value, path) => {
    if (value !== undefined && modelName(value) === undefined) {
      throw new InvalidOptionError({
        path,
        message:
          'must be an AI SDK embedding model (e.g. openai.embedding("text-embedding-3-small")) or a gateway model id',
      });
    }
    return value as EmbeddingModel | undefined;
  }),
});

/** The name vectors are cached under: the gateway id, or `provider:modelId`. */
function modelName(model: unknown): string | undefined {
  if (typeof model === "string") return model === "" ? undefined : `gateway:${model}`;
  if (!isRecord(model) || typeof model["doEmbed"] !== "function") return undefined;
  const { provider, modelId } = model;
  return typeof provider === "string" && typeof modelId === "string" ? `${provider}:${modelId}` : undefined;
}

/** Validates `search` (a bad one throws `InvalidOptionError` naming its path); undefined without a model. */
export function resolveSearchOptions(search: unknown): SearchEmbedder | undefined {
  if (search === undefined) return undefined;
  if (!isRecord(search))
    throw new InvalidOptionError({ path: "search", message: "must be an object { embeddingModel }" });
  const { embeddingModel } = SEARCH_OPTIONS.resolve(search, "search");
  if (embeddingModel === undefined) return undefined;
  return {
    model: modelName(embeddingModel) as string,
    embed: async (values) => (await embedMany({ model: embeddingModel, values })).embeddings,
  };
}
