/**
 * Issue 23 item 3: every public read (and housekeeping) method of the handle, given `undefined`, `null`, a
 * number and a 10 MB string as its id, either throws a typed `CodemodeArgumentError` naming the call or returns
 * its documented "none" (`undefined`, `[]`, `{ deleted: false }`, a `not-found`/`validation` value for the
 * methods that return outcomes). Never the database driver's words (`undefined cannot be passed as argument to
 * the database`, `datatype mismatch`), never a `TypeError`, never the 10 MB string echoed, and the 10 MB
 * string never reaches the store (no round trip carries it).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CodemodeArgumentError } from "../../src/errors.js";
import type { DurableRuntime } from "../../src/runtime/durable-runtime.js";
import { createMockConnector } from "../../src/test/index.js";
import { countingClient } from "../support/counting-client.js";
import { memoryClient, testRuntime } from "./runtime-fixture.js";

const TEN_MB = "x".repeat(10_000_000);
const BAD_IDS = [
  ["undefined", undefined],
  ["null", null],
  ["a number", 42],
  ["a 10 MB string", TEN_MB],
] as const;
/** What a caller may be shown: our own words, bounded. */
const DRIVER_WORDS =
  /cannot be passed as argument|datatype mismatch|SQLITE|StoreError|LibsqlError|Cannot (read|destructure)/i;

type Loose = Record<string, (...args: unknown[]) => Promise<unknown>>;

/** The outcome of a call: its value, or the error it threw (checked to be ours and bounded). */
async function outcome(call: () => Promise<unknown>): Promise<{ value?: unknown; thrown?: CodemodeArgumentError }> {
  try {
    return { value: await call() };
  } catch (error) {
    expect(CodemodeArgumentError.isInstance(error), String(error)).toBe(true);
    const thrown = error as CodemodeArgumentError;
    expect(thrown.code).toBe("invalid-argument");
    expect(thrown.message).not.toMatch(DRIVER_WORDS);
    expect(thrown.message.length).toBeLessThan(1_000);
    return { thrown };
  }
}

describe("the handle's reads with a bad id", () => {
  const watched = countingClient(memoryClient());
  let runtime: DurableRuntime;
  let loose: Loose;
  let executionId: string;

  beforeAll(async () => {
    runtime = testRuntime({
      store: watched.client,
      connectors: { mail: createMockConnector("mail", { methods: { send: {} } }) },
    });
    loose = runtime as unknown as Loose;
    // One execution and one snippet exist, so "none" is an answer about a bad id, not an empty store.
    executionId = (await runtime.execute({ code: "async () => mail.send({ to: 'a' })" })).executionId;
    expect(await runtime.saveSnippet("greet", { executionId })).toMatchObject({ status: "saved" });
    // The watch sees the statements' arguments (the program's code went through it).
    expect(watched.longestArgument()).toBeGreaterThan(20);
  });

  /** Runs `call` and checks no statement carried the 10 MB string (the program and its result are short). */
  async function read(call: () => Promise<unknown>) {
    const result = await outcome(call);
    expect(watched.longestArgument()).toBeLessThan(10_000);
    return result;
  }

  it.each(BAD_IDS)(
    "execution(%s): CodemodeArgumentError, or undefined for a string too long to be an id",
    async (_name, id) => {
      const { value, thrown } = await read(() => loose["execution"]!(id));
      if (typeof id === "string") expect(value).toBeUndefined();
      else
        expect(thrown?.message).toMatch(
          /^execution\(executionId\): must be a non-empty string \(got (undefined|null|42)\)$/,
        );
    },
  );

  it.each(BAD_IDS)(
    "pending(%s): all pending calls for undefined, [] for a long string, else CodemodeArgumentError",
    async (_name, id) => {
      const { value, thrown } = await read(() => loose["pending"]!(id));
      if (id === undefined || typeof id === "string") expect(value).toEqual([]);
      else expect(thrown?.message).toMatch(/^pending\(executionId\): must be a non-empty string/);
    },
  );

  it.each(BAD_IDS)(
    "executions(%s): a list for undefined or a count, else CodemodeArgumentError",
    async (_name, limit) => {
      const { value, thrown } = await read(() => loose["executions"]!(limit));
      if (limit === undefined || typeof limit === "number") expect(value).toHaveLength(1);
      else expect(thrown?.message).toMatch(/^executions\(limit\): must be a non-negative integer \(got (null|".*)/);
    },
  );

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    "executions(%s): CodemodeArgumentError (SQLite reads LIMIT -1 as no limit)",
    async (limit) => {
      expect((await read(() => loose["executions"]!(limit))).thrown?.argument).toBe("executions(limit)");
    },
  );

  it.each(BAD_IDS)(
    "deleteExecution(%s): CodemodeArgumentError, or deleted: false for a long string",
    async (_name, id) => {
      const { value, thrown } = await read(() => loose["deleteExecution"]!(id));
      if (typeof id === "string") expect(value).toEqual({ deleted: false });
      else expect(thrown?.argument).toBe("deleteExecution(executionId)");
    },
  );

  it.each(BAD_IDS)("pruneExecutions(%s): the default or a count, else CodemodeArgumentError", async (_name, keep) => {
    const { value, thrown } = await read(() => loose["pruneExecutions"]!(keep));
    if (keep === undefined || typeof keep === "number") expect(value).toEqual({ deleted: [] });
    else expect(thrown?.argument).toBe("pruneExecutions(keep)");
  });

  it.each(BAD_IDS)(
    "deleteSnippet(%s): CodemodeArgumentError, or deleted: false for a long string",
    async (_name, name) => {
      const { value, thrown } = await read(() => loose["deleteSnippet"]!(name));
      if (typeof name === "string") expect(value).toEqual({ deleted: false });
      else expect(thrown?.argument).toBe("deleteSnippet(name)");
    },
  );

  it.each(BAD_IDS)("snippets(%s): the snippets (it takes no argument)", async (_name, junk) => {
    expect((await read(() => loose["snippets"]!(junk))).value).toMatchObject([{ name: "greet" }]);
  });

  it.each(BAD_IDS)(
    "saveSnippet with %s as executionId, name or options: a validation or not-found value",
    async (_name, bad) => {
      const asId = await read(() => loose["saveSnippet"]!("copy", { executionId: bad }));
      expect(asId.value).toMatchObject({ status: "error", kind: typeof bad === "string" ? "not-found" : "validation" });
      const asName = await read(() => loose["saveSnippet"]!(bad, { executionId }));
      expect(asName.value).toMatchObject({ status: "error", kind: "validation" });
      const asOptions = await read(() => loose["saveSnippet"]!("copy", bad));
      expect(asOptions.value).toMatchObject({ status: "error", kind: "validation" });
      for (const { value } of [asId, asName, asOptions]) {
        expect((value as { error: string }).error.length).toBeLessThan(1_000);
        expect((value as { error: string }).error).not.toMatch(DRIVER_WORDS);
      }
    },
  );

  it.each(BAD_IDS)(
    "expirePaused(%s): the default for undefined, else CodemodeArgumentError",
    async (_name, options) => {
      const { value, thrown } = await read(() => loose["expirePaused"]!(options));
      if (options === undefined) expect(value).toEqual({ expired: [] });
      else expect(thrown?.message).toMatch(/^expirePaused\(options\): must be an object/);
    },
  );

  it.each(BAD_IDS)(
    "search(%s) and describe(%s): results or an error value; bad search options throw",
    async (_name, query) => {
      expect((await read(() => loose["search"]!(query))).value).toMatchObject({ results: [] });
      expect((await read(() => loose["describe"]!(query))).value).toMatchObject({ error: expect.any(String) });
      if (query !== undefined)
        expect((await read(() => loose["search"]!("mail", query))).thrown?.argument).toBe("search(query, options)");
    },
  );

  it.each(BAD_IDS)(
    "approve, reject, rollback and decide with %s as executionId: a validation or not-found value",
    async (_name, id) => {
      const expected = typeof id === "string" ? "not-found" : "validation";
      for (const [method, request] of [
        ["approve", { executionId: id }],
        ["reject", { executionId: id }],
        ["rollback", { executionId: id }],
        ["decide", { executionId: id, decisions: [{ seq: 1, approved: true }] }],
      ] as const) {
        const { value } = await read(() => loose[method]!(request));
        expect(value, method).toMatchObject({ status: "error", kind: expected });
        expect((value as { error: string }).error.length, method).toBeLessThan(1_000);
      }
    },
  );

  it("a listing's options must be an object of known keys", async () => {
    for (const method of ["execution", "pending", "executions"] as const) {
      const first = method === "executions" ? 10 : executionId;
      expect((await read(() => loose[method]!(first, null))).thrown?.message).toMatch(
        new RegExp(`^${method}\\(…, options\\): must be an object \\(got null\\)`),
      );
      expect((await read(() => loose[method]!(first, "scope"))).thrown).toBeDefined();
    }
    // The good id still reads.
    expect(await runtime.execution(executionId)).toMatchObject({ status: "completed" });
  });
});
