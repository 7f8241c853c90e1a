import { existsSync } from "node:fs";
import { tool } from "ai";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createCodemodeRuntime,
  type CodemodeRuntime,
  type CodemodeRuntimeOptions,
} from "../../src/ai/create-codemode-runtime.js";
import { InvalidOptionError } from "../../src/errors.js";
import { conceptEmbeddingModel, type Concepts } from "../support/concept-embedding-model.js";
import { tempFolder } from "../support/temp-folder.js";
import { LocalSqliteClient } from "../../src/runtime/store/connection/local-sqlite-client.js";

const CONCEPTS: Concepts = {
  weather: ["weather", "forecast", "rain", "umbrella", "temperature"],
  money: ["invoice", "payment", "bill", "charge", "owe"],
  mail: ["email", "mail", "message", "inbox"],
};

function tools(forecastDescription = "Returns the forecast (rain, temperature) for a city.") {
  const input = z.object({ city: z.string() });
  return {
    get_forecast: tool({ description: forecastDescription, inputSchema: input, execute: async () => "sunny" }),
    create_invoice: tool({
      description: "Creates an invoice for a customer payment.",
      inputSchema: input,
      execute: async () => "ok",
    }),
    send_email: tool({
      description: "Sends an email message to a person.",
      inputSchema: input,
      execute: async () => "sent",
    }),
  };
}

const opened: CodemodeRuntime[] = [];
afterEach(async () => {
  for (const runtime of opened.splice(0)) await runtime.close();
});

function runtimeOn(url: string, options: Partial<CodemodeRuntimeOptions> = {}): CodemodeRuntime {
  const runtime = createCodemodeRuntime({ connectors: { office: tools() }, store: url, ...options });
  opened.push(runtime);
  return runtime;
}

/** Values embedded for methods (every call but the query's). */
function documentValues(calls: string[][], query: string): string[] {
  return calls.flat().filter((value) => value !== query);
}

/** Rows of the vector cache in the database at `path` (0 when nothing created it: a search only reads). */
async function vectorRows(path: string): Promise<unknown> {
  if (!existsSync(path)) return 0;
  const client = new LocalSqliteClient(path, { timeout: 1_000 });
  try {
    const table = await client.execute(
      "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'codemode_search_vectors'",
    );
    if (table.rows[0]?.["n"] === 0) return 0;
    return (await client.execute("SELECT COUNT(*) AS n FROM codemode_search_vectors")).rows[0]?.["n"];
  } finally {
    client.close();
  }
}

const NO_OVERLAP = "will I need an umbrella tomorrow";
/** Two methods match it about as well (a customer, a person): the lexical ranking leaves it open. */
const OPEN_WITH_HITS = "a customer or a person";

describe("search.embeddingModel", () => {
  it("finds the semantically closest method for a query that shares no word with any method", async () => {
    const url = `file:${join(tempFolder("codemode-semantic-"), "db.sqlite")}`;
    const lexical = await runtimeOn(url).search(NO_OVERLAP);
    expect(lexical.results.map((result) => result.path)).not.toContain("office.get_forecast");
    const { model } = conceptEmbeddingModel(CONCEPTS);
    const semantic = await runtimeOn(url, { search: { embeddingModel: model } }).search(NO_OVERLAP);
    expect(semantic.results[0]?.path).toBe("office.get_forecast");
  });

  it("keeps the lexical order of an open query when similarity does not tell the methods apart", async () => {
    const url = `file:${join(tempFolder("codemode-semantic-"), "db.sqlite")}`;
    const { model, calls } = conceptEmbeddingModel({}); // every text gets the same vector
    const blended = await runtimeOn(url, { search: { embeddingModel: model } }).search(OPEN_WITH_HITS);
    const lexical = await runtimeOn(url).search(OPEN_WITH_HITS);
    expect(calls.flat()).toContain(OPEN_WITH_HITS); // blended, not left to the lexical ranking
    expect(lexical.results.length).toBeGreaterThan(1);
    expect(blended.results.map((result) => result.path)).toEqual(lexical.results.map((result) => result.path));
  });

  it("embeds nothing and reads no vector for a query the lexical ranking settles", async () => {
    const path = join(tempFolder("codemode-semantic-"), "db.sqlite");
    const { model, calls } = conceptEmbeddingModel(CONCEPTS);
    const blended = await runtimeOn(`file:${path}`, { search: { embeddingModel: model } }).search("send an email");
    expect(blended).toEqual(await runtimeOn(`file:${path}`).search("send an email"));
    expect(calls).toEqual([]);
    expect(await vectorRows(path)).toBe(0);
  });

  it("embeds methods once per database: a second runtime embeds only its query", async () => {
    const url = `file:${join(tempFolder("codemode-semantic-"), "db.sqlite")}`;
    const first = conceptEmbeddingModel(CONCEPTS);
    const runtime = runtimeOn(url, { search: { embeddingModel: first.model } });
    await runtime.search(NO_OVERLAP);
    expect(documentValues(first.calls, NO_OVERLAP)).toHaveLength(3);
    await runtime.search(OPEN_WITH_HITS);
    expect(first.calls).toHaveLength(3); // documents once, then one call per open query

    const second = conceptEmbeddingModel(CONCEPTS);
    const cold = runtimeOn(url, { search: { embeddingModel: second.model } });
    const output = await cold.execute({
      code: `async () => (await codemode.search(${JSON.stringify(NO_OVERLAP)})).results[0].path`,
    });
    expect(output).toMatchObject({ status: "completed", result: "office.get_forecast" });
    expect(second.calls).toEqual([[NO_OVERLAP]]);
  });

  it("re-embeds only a method whose description changed, and keeps vectors per model", async () => {
    const url = `file:${join(tempFolder("codemode-semantic-"), "db.sqlite")}`;
    const first = conceptEmbeddingModel(CONCEPTS);
    await runtimeOn(url, { search: { embeddingModel: first.model } }).search(NO_OVERLAP);

    const changed = conceptEmbeddingModel(CONCEPTS);
    const description = "Sends a bill (an invoice) by mail.";
    const runtime = createCodemodeRuntime({
      connectors: { office: tools(description) },
      store: url,
      search: { embeddingModel: changed.model },
    });
    opened.push(runtime);
    const output = await runtime.search("what do I owe"); // no method's words: open
    expect(documentValues(changed.calls, "what do I owe")).toEqual([expect.stringContaining(description)]);
    expect(
      output.results
        .slice(0, 2)
        .map((result) => result.path)
        .sort(),
    ).toEqual(["office.create_invoice", "office.get_forecast"]);

    const otherModel = conceptEmbeddingModel(CONCEPTS, { modelId: "concepts-2" });
    await runtimeOn(url, { search: { embeddingModel: otherModel.model } }).search(NO_OVERLAP);
    expect(documentValues(otherModel.calls, NO_OVERLAP)).toHaveLength(3);
  });

  it("stores vectors in libSQL's F32_BLOB layout, readable by vector_distance_cos", async () => {
    const path = join(tempFolder("codemode-semantic-"), "db.sqlite");
    const { model } = conceptEmbeddingModel(CONCEPTS);
    await runtimeOn(`file:${path}`, { search: { embeddingModel: model } }).search(NO_OVERLAP);
    const client = new LocalSqliteClient(path, { timeout: 1_000 });
    try {
      const rows = await client.execute({
        sql: "SELECT dimensions, vector_distance_cos(vector, vector32(?)) AS distance FROM codemode_search_vectors ORDER BY distance",
        args: [JSON.stringify([1, 0, 0, 0.1])],
      });
      expect(rows.rows).toHaveLength(3);
      expect(rows.rows.every((row) => row["dimensions"] === 4)).toBe(true);
      expect(Number(rows.rows[0]?.["distance"])).toBeLessThan(Number(rows.rows[2]?.["distance"]));
    } finally {
      client.close();
    }
  });

  it("calls nothing and ranks lexically without a model", async () => {
    const path = join(tempFolder("codemode-semantic-"), "db.sqlite");
    const plain = await runtimeOn(`file:${path}`).search("send an email");
    const empty = await runtimeOn(`file:${path}`, { search: {} }).search("send an email");
    expect(empty).toEqual(plain);
    expect(await vectorRows(path)).toBe(0);
  });

  it("ranks lexically when the embedding model fails, and tries again on the next search", async () => {
    const url = `file:${join(tempFolder("codemode-semantic-"), "db.sqlite")}`;
    const { model, calls } = conceptEmbeddingModel(CONCEPTS, { fail: true });
    const runtime = runtimeOn(url, { search: { embeddingModel: model } });
    const lexical = await runtimeOn(url).search(OPEN_WITH_HITS);
    expect(await runtime.search(OPEN_WITH_HITS)).toEqual(lexical);
    const before = calls.length;
    expect(await runtime.search(OPEN_WITH_HITS)).toEqual(lexical);
    expect(calls.length).toBeGreaterThan(before);
  });

  it("refuses a misspelt key and a value that is not an embedding model", () => {
    expect(() => createCodemodeRuntime({ search: { embedingModel: "x" } as never })).toThrow(
      /search\.embedingModel.*did you mean "embeddingModel"/,
    );
    expect(() => createCodemodeRuntime({ search: { embeddingModel: 42 as never } })).toThrow(InvalidOptionError);
    expect(() => createCodemodeRuntime({ serch: {} } as never)).toThrow(/did you mean "search"/);
  });
});
