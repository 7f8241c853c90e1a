/**
 * Every runnable example in `examples/` runs against the built package and prints what its
 * header comment promises.
 */
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { createCodemodeRuntime } from "../../src/index.js";

const root = resolve(import.meta.dirname, "../..");

/** Runs an example in a fresh folder, which is also its TMPDIR (the examples keep their databases there); removed after. */
function runExample(name: string, env: NodeJS.ProcessEnv = {}): Record<string, unknown> {
  const folder = mkdtempSync(join(tmpdir(), "codemode-ex-"));
  const clean: NodeJS.ProcessEnv = { ...process.env, ...env, TMPDIR: folder };
  if (env["TURSO_DATABASE_URL"] === undefined) delete clean["TURSO_DATABASE_URL"];
  delete clean["CODEMODE_DATABASE_URL"];
  let result: SpawnSyncReturns<string>;
  try {
    result = spawnSync(process.execPath, [join(root, "examples", name)], {
      cwd: folder,
      env: clean,
      encoding: "utf8",
      timeout: 60_000,
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  if (result.status !== 0) throw new Error(`${name} exited ${result.status}:\n${result.stdout}${result.stderr}`);
  const shown: Record<string, unknown> = {};
  for (const line of result.stdout.split("\n")) {
    const match = /^([^:]+): (.*)$/.exec(line);
    if (match !== null) shown[match[1]!] = JSON.parse(match[2]!);
  }
  return shown;
}

describe("examples", () => {
  it("approve-in-another-process: the refund happens once, in the approving process", () => {
    const shown = runExample("approve-in-another-process.mjs");
    expect(shown["first process output"]).toMatchObject({
      status: "paused",
      pending: [{ connector: "payments", method: "refund_charge" }],
    });
    expect(shown["effects in the first process"]).toEqual([]);
    expect(shown["approved output"]).toMatchObject({
      status: "completed",
      result: { refunded: 4200, refundId: "re_1" },
    });
    expect(shown["effects in the approver process"]).toEqual([
      { effect: "refund", refundId: "re_1", chargeId: "ch_1", amount: 4200 },
    ]);
  });

  it("modules: a program imports lodash-es, date-fns and papaparse bundled with esbuild, paused and approved", () => {
    const shown = runExample("modules.mjs");
    expect(shown["first pass"]).toEqual({ status: "paused", pending: ["refund_charge"] });
    expect(shown["approved"]).toMatchObject({
      status: "completed",
      result: { customers: ["cus_42", "cus_7"], total: 5400, refunded: "re_1", on: "5 Jan 2026" },
    });
    expect(shown["refunds"]).toEqual([{ effect: "refund", refundId: "re_1", chargeId: "ch_1", amount: 4200 }]);
    expect(shown["describe lodash-es"]).toBe('declare module "lodash-es" {');
    expect(shown["tool description line"]).toMatch(/^Modules .*: lodash-es, date-fns, papaparse\./);
  });

  it("reject: the run ends rejected, a later approve is stale, nothing ran", () => {
    const shown = runExample("reject.mjs");
    expect(shown["reject"]).toMatchObject({ status: "rejected" });
    expect(shown["approve afterwards"]).toMatchObject({ status: "error", kind: "stale" });
    expect(shown["effects"]).toEqual([]);
    expect(shown["status"]).toBe("rejected");
  });

  it("rollback: reverts newest first, idempotently", () => {
    const shown = runExample("rollback.mjs");
    expect(shown["completed"]).toMatchObject({ status: "completed", result: ["re_1", "re_2"] });
    expect(shown["rollback"]).toMatchObject({ status: "rolled_back", reverted: [2, 1] });
    expect(shown["rollback again (idempotent)"]).toMatchObject({ reverted: [] });
    expect((shown["effects"] as Array<{ effect: string }>).map((entry) => entry.effect)).toEqual([
      "refund",
      "refund",
      "reverse-refund",
      "reverse-refund",
    ]);
  });

  it("snippets: saved, searchable, run with input; a missing one resolves to { error }", () => {
    const shown = runExample("snippets.mjs");
    expect(shown["first run"]).toMatchObject({ status: "completed", result: { chargeId: "ch_1", euros: 42 } });
    expect(shown["save"]).toMatchObject({ status: "saved" });
    expect(shown["search"]).toContain("snippet:snippets.charge_in_euros");
    expect(shown["reuse"]).toMatchObject({
      status: "completed",
      result: { a: { chargeId: "ch_7", euros: 42 }, missing: { error: expect.stringContaining("No snippet") } },
    });
  });

  it("cost-budget: the API billed per record stops at limits.maxCost, the call over it never billed", () => {
    const shown = runExample("cost-budget.mjs");
    expect(shown["output"]).toMatchObject({ status: "error", kind: "limit" });
    expect(String((shown["output"] as { error: string }).error)).toContain(
      "may spend 250 (limits.maxCost) and 200 was spent",
    );
    expect(shown["billed records"]).toEqual([100, 100]);
    expect(shown["journaled costs"]).toEqual([100, 100]);
  });

  it("named-runtimes: separate histories in one database", () => {
    const shown = runExample("named-runtimes.mjs");
    expect(shown).toMatchObject({
      "support executions": 2,
      "finance executions": 1,
      "finance after deleteAllData": 0,
      "support after finance.deleteAllData()": 2,
    });
  });

  it("mcp-connector: a real MCP server's tools drive a program", () => {
    const shown = runExample("mcp-connector.mjs");
    expect(shown["search"]).toContain("memory.create_entities");
    expect(shown["output"]).toMatchObject({ status: "completed", result: ["ada"] });
  });

  it("turso: the store comes from TURSO_DATABASE_URL", async () => {
    const folder = mkdtempSync(join(tmpdir(), "codemode-turso-"));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const url = `file:${join(folder, "journal.db")}`;
    const shown = runExample("turso.mjs", { TURSO_DATABASE_URL: url });
    expect(shown["from environment"]).toMatchObject({ status: "completed" });
    expect(shown["explicit executions"]).toBe(1);
    expect(shown["shared client"]).toBe("completed");
    const runtime = createCodemodeRuntime({ store: url });
    expect((await runtime.executions()).map((execution) => execution.status)).toEqual(["completed"]);
    await runtime.close();
  });
});
