import { describe, expect, it } from "vitest";
import { createSearchIndex } from "../../../src/connectors/search/search-index.js";
import { embeddingText, MAX_EMBEDDING_TEXT_CHARS } from "../../../src/connectors/search/embedding-text.js";
import {
  blendScores,
  DECIDED_LEAD,
  dotProduct,
  lexicallyDecided,
  mostSimilar,
  unitVector,
} from "../../../src/connectors/search/semantic-blend.js";
import { methodDocument } from "../fixtures/search-document.js";

describe("lexicallyDecided", () => {
  it("trusts a best hit that leads the second by DECIDED_LEAD of its score, or a single hit", () => {
    expect(lexicallyDecided([20, 20 * (1 - DECIDED_LEAD)])).toBe(true);
    expect(lexicallyDecided([12, 30, 4])).toBe(true);
    expect(lexicallyDecided([7])).toBe(true);
  });

  it("leaves a near tie, an exact tie and no hit open", () => {
    expect(lexicallyDecided([20, 19])).toBe(false);
    expect(lexicallyDecided([3, 25, 25])).toBe(false);
    expect(lexicallyDecided([])).toBe(false);
    expect(lexicallyDecided([0, 0])).toBe(false);
  });
});

describe("isLexicallyDecided", () => {
  const index = createSearchIndex([
    methodDocument("mail.send_email", "Send an email message to a person."),
    methodDocument("mail.send_sms", "Send a text message to a phone."),
    methodDocument("files.delete_file", "Delete a file from disk."),
  ]);

  it("is true when the query names one method, false for a tie or a query no method's words match", () => {
    expect(index.isLexicallyDecided("delete a file")).toBe(true);
    expect(index.isLexicallyDecided("send a message")).toBe(false);
    expect(index.isLexicallyDecided("will I need an umbrella tomorrow")).toBe(false);
    expect(index.isLexicallyDecided("")).toBe(true);
  });

  it("does not change what the search of the same query returns", () => {
    const before = createSearchIndex([
      methodDocument("mail.send_email", "Send an email message to a person."),
      methodDocument("mail.send_sms", "Send a text message to a phone."),
    ]).search("send a message", { limit: 5 });
    index.isLexicallyDecided("send a message");
    const after = index.search("send a message", { limit: 5 });
    expect(after.results.map((result) => result.path)).toEqual(before.results.map((result) => result.path));
    expect(index.search("delete file").results[0]?.path).toBe("files.delete_file");
  });
});

describe("embeddingText", () => {
  it("is the name's words and the description's first sentence, not the path, parameters or the rest", () => {
    const text = embeddingText({
      method: "issues_listForRepo",
      description: "List repository issues.\n\n> [!NOTE]\n> Pull requests are issues too. Fine-grained tokens: …",
    });
    expect(text).toBe("issues list for repo. List repository issues.");
    expect(embeddingText({ method: "get_me" })).toBe("get me");
  });

  it("is cut to MAX_EMBEDDING_TEXT_CHARS", () => {
    expect(embeddingText({ method: "x".repeat(2 * MAX_EMBEDDING_TEXT_CHARS) })).toHaveLength(MAX_EMBEDDING_TEXT_CHARS);
  });
});

describe("blendScores", () => {
  it("lets similarity reorder close lexical hits and add a document no word matched", () => {
    const blended = blendScores(
      new Map([
        ["a", 20],
        ["b", 19],
      ]),
      new Map([
        ["a", 0.1],
        ["b", 0.9],
        ["c", 0.95],
        ["d", 0.05],
      ]),
    );
    expect(blended.get("b")!).toBeGreaterThan(blended.get("a")!);
    expect(blended.has("c")).toBe(true);
    expect(blended.has("d")).toBe(false);
  });
});

describe("mostSimilar", () => {
  it("picks what sorting every document by similarity (then path) would, seeded", () => {
    let state = 42;
    const next = (): number => {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      return state / 2 ** 32;
    };
    for (let round = 0; round < 20; round++) {
      // Few distinct values, so ties are common and broken by path.
      const similarity = new Map(
        Array.from({ length: 300 }, (_, index): [string, number] => [
          `m${(index * 7919) % 300}`,
          Math.round(next() * 20) / 20,
        ]),
      );
      const sorted = [...similarity].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([path]) => path);
      for (const count of [0, 1, 50, 400])
        expect(mostSimilar(similarity, count), `seed 42, round ${round}`).toEqual(sorted.slice(0, count));
    }
  });
});

describe("unit vectors", () => {
  it("make the dot product the cosine similarity, and leave a zero vector zero", () => {
    const a = unitVector(Float32Array.from([3, 4]));
    const b = unitVector(Float32Array.from([4, 3]));
    expect(Math.hypot(...a)).toBeCloseTo(1, 6);
    expect(dotProduct(a, b)).toBeCloseTo(24 / 25, 6);
    expect([...unitVector(new Float32Array(3))]).toEqual([0, 0, 0]);
    expect(dotProduct(a, Float32Array.from([1, 0, 0]))).toBe(0);
  });
});
