/**
 * Defect 6 (issue 14): every string the journal stores is bounded, and messages that echo an input cut it. Before
 * the fix, an 8 MB step name and an 8 MB thrown message wrote 16 MB rows; three runs grew the database to 176 MB.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_STEP_NAME_CHARS, MAX_STORED_MESSAGE_CHARS } from "../../src/shared/bounded-text.js";
import { createMockConnector } from "../../src/test/index.js";
import { sharedExecutor, testRuntime } from "./runtime-fixture.js";

const EIGHT_MB = 8 * 1024 * 1024;

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folderBytes(folder: string): number {
  return readdirSync(folder).reduce((total, name) => total + statSync(path.join(folder, name)).size, 0);
}

describe("bounded stored strings", () => {
  it("an 8 MB step name and an 8 MB thrown message leave bounded rows and a small database", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "codemode-bounded-"));
    folders.push(folder);
    const url = `file:${path.join(folder, "codemode.db")}`;
    const runtime = testRuntime({ store: url, executor: sharedExecutor() });
    const code = `async () => {
      const big = "n".repeat(${EIGHT_MB});
      let refused = "";
      try { await codemode.step(big, () => 1); } catch (error) { refused = error.message; }
      await codemode.step("thrower", () => { throw new Error("m".repeat(${EIGHT_MB})); });
      return refused;
    }`;
    for (let run = 0; run < 3; run += 1) {
      const out = await runtime.execute({ code });
      expect(out).toMatchObject({ status: "error", kind: "exception" });
      expect((out as { error: string }).error.length).toBeLessThanOrEqual(MAX_STORED_MESSAGE_CHARS);
    }
    await runtime.close();
    const client = createClient({ url });
    try {
      const calls = await client.execute(
        "SELECT MAX(LENGTH(method)) AS method, MAX(LENGTH(error)) AS error FROM codemode_calls",
      );
      expect(Number(calls.rows[0]?.["method"])).toBeLessThanOrEqual(MAX_STEP_NAME_CHARS);
      expect(Number(calls.rows[0]?.["error"])).toBeLessThanOrEqual(MAX_STORED_MESSAGE_CHARS);
      const executions = await client.execute("SELECT MAX(LENGTH(error)) AS error FROM codemode_executions");
      expect(Number(executions.rows[0]?.["error"])).toBeLessThanOrEqual(MAX_STORED_MESSAGE_CHARS);
      const steps = await client.execute("SELECT method, status FROM codemode_calls ORDER BY execution_id, seq");
      expect(steps.rows.map((row) => [row["method"], row["status"]])).toEqual(
        Array.from({ length: 3 }, () => ["thrower", "error"]),
      );
    } finally {
      client.close();
    }
    expect(folderBytes(folder)).toBeLessThan(2 * 1024 * 1024);
  });

  it("a step name over the bound is refused inside the program with a short message", async () => {
    const runtime = testRuntime();
    const out = await runtime.execute({
      code: `async () => { try { await codemode.step("n".repeat(${MAX_STEP_NAME_CHARS + 1}), () => 1) } catch (e) { return e.message } }`,
    });
    expect(out).toMatchObject({ status: "completed" });
    expect((out as { result: string }).result).toMatch(/at most 200 characters \(got 201 characters\)/);
  });

  it("a connector's 8 MB failure message and an 8 MB rejection reason are stored cut; replay throws the cut message", async () => {
    const flaky = createMockConnector("flaky", {
      methods: { call: { fails: "f".repeat(EIGHT_MB) }, gate: { needsApproval: true } },
    });
    const runtime = testRuntime({ connectors: { flaky } });
    const paused = await runtime.execute({
      code: "async () => { let n = 0; try { await flaky.call({}) } catch (e) { n = e.message.length } await flaky.gate({}); return n }",
    });
    expect(paused.status).toBe("paused");
    const row = (await runtime.execution(paused.executionId))?.calls[0];
    expect(row?.error?.length).toBeLessThanOrEqual(MAX_STORED_MESSAGE_CHARS);
    expect(row?.error).toMatch(/more characters cut\]$/);
    const rejected = await runtime.reject({ executionId: paused.executionId, reason: "r".repeat(EIGHT_MB) });
    expect(rejected.status).toBe("rejected");
    const detail = await runtime.execution(paused.executionId);
    expect(detail?.error?.length).toBeLessThanOrEqual(MAX_STORED_MESSAGE_CHARS + 100);
    expect(detail?.calls[1]?.error?.length).toBeLessThanOrEqual(MAX_STORED_MESSAGE_CHARS + 100);
  });

  it("messages that echo an input cut it: an unknown 2 MB execution id, a 2 MB snippet name, an 8 MB description", async () => {
    // The not-found message names the store it read (a few hundred characters); the echoed id is cut.
    const runtime = testRuntime();
    const longId = "x".repeat(2 * 1024 * 1024);
    const approved = await runtime.approve({ executionId: longId });
    expect(approved).toMatchObject({ status: "error", kind: "not-found" });
    expect((approved as { error: string }).error.length).toBeLessThan(700);
    expect(approved.executionId.length).toBeLessThanOrEqual(200);
    const rolled = await runtime.rollback({ executionId: longId });
    expect((rolled as { error?: string }).error?.length ?? 0).toBeLessThan(700);
    const badName = await runtime.saveSnippet("y".repeat(2 * 1024 * 1024), { executionId: "e" });
    expect(badName).toMatchObject({ status: "error", kind: "validation" });
    expect((badName as { error: string }).error.length).toBeLessThan(300);
    const source = await runtime.execute({ code: "1" });
    const description = await runtime.saveSnippet("ok", {
      executionId: source.executionId,
      description: "d".repeat(EIGHT_MB),
    });
    expect(description).toMatchObject({ status: "error", kind: "validation" });
    const missing = await runtime.execute({ code: `async () => codemode.run("z".repeat(${2 * 1024 * 1024}))` });
    expect(JSON.stringify(missing).length).toBeLessThan(1000);
  });
});
