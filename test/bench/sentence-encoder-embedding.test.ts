import { embedMany } from "ai";
import { describe, expect, it } from "vitest";
import { sentenceEncoderEmbeddingModel, withoutNetwork } from "../../bench/sentence-encoder-embedding.js";

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index++) {
    dot += a[index]! * b[index]!;
    normA += a[index]! * a[index]!;
    normB += b[index]! * b[index]!;
  }
  return dot / Math.sqrt(normA * normB);
}

describe("the bench's sentence encoder", () => {
  it("loads from node_modules and embeds by meaning (512 dimensions)", async () => {
    const { embeddings } = await embedMany({
      model: sentenceEncoderEmbeddingModel(),
      values: ["will I need an umbrella tomorrow", "get the weather forecast for a city", "delete a repository"],
    });
    expect(embeddings.map((embedding) => embedding.length)).toEqual([512, 512, 512]);
    const [query, forecast, deletion] = embeddings as [number[], number[], number[]];
    expect(cosine(query, forecast)).toBeGreaterThan(cosine(query, deletion) + 0.2);
  });

  it("fails a load that tries the network, even one that catches the failure, and restores fetch", async () => {
    const original = globalThis.fetch;
    const sneaky = async (): Promise<string> => {
      await fetch("https://example.invalid/model.json").catch(() => undefined);
      return "loaded";
    };
    await expect(withoutNetwork(sneaky)).rejects.toThrow(/tried to fetch https:\/\/example\.invalid\/model\.json/);
    expect(globalThis.fetch).toBe(original);
    await expect(withoutNetwork(async () => "local")).resolves.toBe("local");
  });
});
