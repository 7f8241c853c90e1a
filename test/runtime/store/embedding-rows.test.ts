import type { Client } from "@libsql/client";
import { describe, expect, it } from "vitest";
import { createLibsqlJournalStore } from "../../../src/runtime/store/libsql-journal-store.js";
import { MAX_HASHES_PER_STATEMENT, parseVectorRow, vectorBytes } from "../../../src/runtime/store/embedding-rows.js";
import { memoryClient, memoryLibsqlClient } from "../runtime-fixture.js";

const drivers: Array<[string, () => Client]> = [
  ["embedded libsql", memoryClient],
  ["@libsql/client", memoryLibsqlClient],
];

describe.each(drivers)("search vectors on %s", (_name, open) => {
  it("round-trips float32 vectors by model and hash, in batches past one statement's list", async () => {
    const client = open();
    const store = createLibsqlJournalStore({ client, runtime: "a", local: false, now: () => 1 });
    const count = MAX_HASHES_PER_STATEMENT + 7;
    const vectors = Array.from({ length: count }, (_, index) => ({
      textHash: `h${index}`,
      vector: Float32Array.from([index, 0.5, -1]),
    }));
    await store.saveSearchVectors("test:m1", vectors);
    const read = await store.searchVectors("test:m1", [...vectors.map((vector) => vector.textHash), "absent"]);
    expect(read.length).toBe(count);
    expect(read.find((vector) => vector.textHash === `h${count - 1}`)?.vector).toEqual(
      Float32Array.from([count - 1, 0.5, -1]),
    );
    expect(await store.searchVectors("test:m2", ["h1"])).toEqual([]);
    // Shared by runtime names: a vector depends on the model and the text only.
    const other = createLibsqlJournalStore({ client, runtime: "b", local: false, now: () => 1 });
    expect((await other.searchVectors("test:m1", ["h1"])).length).toBe(1);
    client.close();
  });
});

describe("parseVectorRow", () => {
  it("leaves out rows that are not vectors of their stated dimensions", () => {
    const bytes = vectorBytes(Float32Array.from([1, 2]));
    expect(parseVectorRow({ text_hash: "h", dimensions: 2, vector: bytes })?.vector).toEqual(Float32Array.from([1, 2]));
    expect(parseVectorRow({ text_hash: "h", dimensions: 3, vector: bytes })).toBeUndefined();
    expect(parseVectorRow({ text_hash: "h", dimensions: 2, vector: "not bytes" })).toBeUndefined();
    expect(
      parseVectorRow({ text_hash: "h", dimensions: 1, vector: vectorBytes(Float32Array.from([Number.NaN])) }),
    ).toBeUndefined();
  });
});
