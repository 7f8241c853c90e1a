import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExecutionRow } from "../../src/inspector/list-executions.js";
import { createDurableRuntime } from "../../src/runtime/durable-runtime.js";
import {
  createJournalFixture,
  expectedPending,
  shopConnector,
  type JournalFixture,
} from "../inspector/journal-fixture.js";
import { sharedExecutor, testClock } from "../runtime/runtime-fixture.js";
import { tempFolder } from "../support/temp-folder.js";
import { cli } from "./cli-support.js";

let fixture: JournalFixture;
let now: number;

beforeAll(async () => {
  fixture = await createJournalFixture();
  now = fixture.clock.now() + 1000;
});
afterAll(() => fixture.cleanup());

const run = (...args: string[]) => cli([...args, "--store", fixture.storeUrl], { now, cwd: fixture.dir });

describe("ai-codemode executions", () => {
  it("prints a table of executions in every status, newest first", async () => {
    const out = await run("executions");
    expect(out).toMatchObject({ code: 0, stderr: "" });
    await expect(out.stdout).toMatchFileSnapshot("./__snapshots__/executions.txt");
    for (const status of ["running", "paused", "completed", "error", "rejected", "rolled_back"])
      expect(out.stdout).toContain(status);
  });

  it("filters by status and by age, and prints JSON with --json", async () => {
    const paused = JSON.parse((await run("executions", "--status", "paused", "--json")).stdout) as {
      executions: ExecutionRow[];
    };
    expect(paused.executions.map((row) => row.executionId)).toEqual([fixture.ids.paused]);
    expect(paused.executions[0]).toMatchObject({ status: "paused", passes: 1, calls: 2, pending: 1 });
    const recent = JSON.parse((await run("executions", "--since", "2m", "--json")).stdout) as {
      executions: ExecutionRow[];
    };
    expect(recent.executions.map((row) => row.executionId)).toEqual([fixture.ids.running, fixture.ids.paused]);
    const since = JSON.parse(
      (await run("executions", "--since", "2026-01-01T09:05:00Z", "--limit", "2", "--json")).stdout,
    ) as { executions: ExecutionRow[] };
    expect(since.executions).toHaveLength(2);
  });

  it("refuses a bad status, age or option with exit code 2", async () => {
    expect(await run("executions", "--status", "done")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--status must be one of running, paused"),
    });
    expect(await run("executions", "--since", "yesterday")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--since takes an age"),
    });
    expect(await run("executions", "--older-than", "1h")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("executions does not take --older-than"),
    });
    expect(await run("frobnicate")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Unknown command "frobnicate".'),
    });
  });

  it("answers a misspelt command with the closest one", async () => {
    expect(await run("aprove", "x")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Unknown command "aprove" (did you mean `approve`?).'),
    });
    expect(await run("toString")).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown command") });
  });

  it("answers a misspelt option with the closest one, not the argument parser's text", async () => {
    const misspelt = await run("executions", "--stauts", "paused");
    expect(misspelt.code).toBe(2);
    expect(misspelt.stderr).toContain('Unknown option "--stauts" (did you mean --status?)');
    expect(misspelt.stderr).not.toContain("positional argument");
    const unknown = await run("executions", "--zzzzzzzzzz");
    expect([unknown.code, unknown.stderr.includes('Unknown option "--zzzzzzzzzz".')]).toEqual([2, true]);
  });
});

describe("ai-codemode show", () => {
  const stories = ["approved", "paused", "error", "rejected", "rolledBack", "running"] as const;
  for (const story of stories) {
    it(`prints the program and the timeline of the ${story} execution`, async () => {
      const out = await run("show", fixture.ids[story]);
      expect(out).toMatchObject({ code: 0, stderr: "" });
      await expect(out.stdout).toMatchFileSnapshot(`./__snapshots__/show-${story}.txt`);
    });
  }

  it("shows passes, replays, the wait and the approval of a resumed execution", async () => {
    const { stdout } = await run("show", fixture.ids.approved);
    expect(stdout).toMatch(/Pass 1 .*started\n {2}#1 shop\.list {2}replayed ×1/);
    expect(stdout).toContain("⏸ waited 3m 05s for approval of #2");
    expect(stdout).toMatch(
      /Pass 2 {2}\+3m 05s {2}resumed by the approval of #2\n {2}replayed from the journal: #1\n {2}#2 shop\.buy {2}applied {2}\+3m 05s {2}80 ms/,
    );
    expect(stdout).toContain("approved #2 by ann@example.com at 2026-01-01 09:04:05Z");
    expect(stdout).toContain("       approved by ann@example.com");
  });

  it("shows who decided a rejection, and no one where nobody was given", async () => {
    expect((await run("show", fixture.ids.rejected)).stdout).toContain("rejected #2 by ops-7 at");
    const rolledBack = (await run("show", fixture.ids.rolledBack)).stdout;
    expect(rolledBack).toContain("approved #2 at");
    expect(rolledBack).not.toMatch(/(approved|rejected)( #\d+)? by /);
  });

  it("prints the execution and its timeline as JSON", async () => {
    const parsed = JSON.parse((await run("show", fixture.ids.approved, "--json")).stdout) as {
      execution: { executionId: string; calls: unknown[] };
      timeline: {
        passes: Array<{ pass: number; trigger: string }>;
        calls: Array<{ seq: number; pass: number; replayedInPasses: number[] }>;
      };
    };
    expect(parsed.execution.executionId).toBe(fixture.ids.approved);
    expect(parsed.timeline.passes.map((pass) => pass.trigger)).toEqual(["start", "approval"]);
    expect(parsed.timeline.calls.map(({ seq, pass, replayedInPasses }) => ({ seq, pass, replayedInPasses }))).toEqual([
      { seq: 1, pass: 1, replayedInPasses: [2] },
      { seq: 2, pass: 2, replayedInPasses: [] },
    ]);
  });

  it("says so when there is no such execution (exit code 1)", async () => {
    expect(await run("show", "nope")).toMatchObject({
      code: 1,
      stdout: "",
      // The store it read is named: a not-found on the wrong database says which one it was.
      stderr: `No execution nope in runtime "default" of ${fixture.storeUrl.split("?")[0]} (nor one whose id starts with it).\n`,
    });
  });
});

describe("ai-codemode pending, approve without --runtime", () => {
  it("lists what waits for approval", async () => {
    const out = await run("pending");
    await expect(out.stdout).toMatchFileSnapshot("./__snapshots__/pending.txt");
    expect(JSON.parse((await run("pending", "--json")).stdout)).toEqual(expectedPending(fixture));
  });

  it("refuses approve, reject and rollback without the app's runtime, changing nothing", async () => {
    for (const action of ["approve", "reject", "rollback"]) {
      const out = await run(action, fixture.ids.paused);
      expect(out.code).toBe(2);
      expect(out.stderr).toContain(`${action} runs the app's connectors`);
      expect(out.stderr).toContain("--runtime <module>");
    }
    expect((await fixture.runtime.execution(fixture.ids.paused))?.status).toBe("paused");
  });

  it("reports a missing database instead of creating one", async () => {
    const out = await cli(["executions"], { now, cwd: fixture.dir });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`No codemode database at ${fixture.dir}/.codemode/codemode.db`);
    const fromEnv = await cli(["executions", "--json"], {
      now,
      cwd: fixture.dir,
      env: { CODEMODE_DATABASE_URL: fixture.storeUrl },
    });
    expect(JSON.parse(fromEnv.stdout).executions).toHaveLength(7);
  });
});

describe("ai-codemode expire and prune (they change the database: last)", () => {
  it("expires paused runs older than --older-than (on the CLI's clock)", async () => {
    expect(JSON.parse((await run("expire", "--older-than", "2m", "--json")).stdout)).toEqual({ expired: [] });
    const out = await run("expire", "--older-than", "1m");
    expect(out).toMatchObject({ code: 0, stdout: `${fixture.ids.paused}  → rejected\n` });
    expect((await fixture.runtime.execution(fixture.ids.paused))?.status).toBe("rejected");
    expect(await run("expire")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("expire needs --older-than"),
    });
  });

  it("prunes ended executions beyond --keep, none within the retention grace (24 h after they ended)", async () => {
    expect((await run("prune", "--keep", "2")).stdout).toBe("Nothing to prune.\n");
    const dayLater = (...args: string[]) =>
      cli([...args, "--store", fixture.storeUrl], { now: now + 24 * 60 * 60_000, cwd: fixture.dir });
    const out = JSON.parse((await dayLater("prune", "--keep", "2", "--json")).stdout) as { deleted: string[] };
    expect(out.deleted.sort()).toEqual(
      [fixture.ids.approved, fixture.ids.completed, fixture.ids.error, fixture.ids.rejected].sort(),
    );
    expect((await dayLater("prune", "--keep", "2")).stdout).toBe("Nothing to prune.\n");
    const left = JSON.parse((await run("executions", "--json")).stdout) as { executions: ExecutionRow[] };
    expect(left.executions.map((row) => row.executionId)).toEqual([
      fixture.ids.running,
      fixture.ids.paused,
      fixture.ids.rolledBack,
    ]);
  });
});

describe("short ids and where the database is", () => {
  /** A store holding executions whose ids share a prefix, and the app module that acts on it. */
  async function shortIdStore(): Promise<{ dir: string; storeUrl: string; module: string }> {
    const dir = tempFolder("codemode-cli-ids-");
    const storeUrl = `file:${join(dir, "app.db")}`;
    const ids = ["3347ec2d-aaaa", "lease-1", "3347ec2d-bbbb", "lease-2", "9f00c1de-cccc", "lease-3"];
    const runtime = createDurableRuntime({
      store: storeUrl,
      executor: sharedExecutor(),
      connectors: { shop: shopConnector(testClock(), new Promise(() => {})) },
      _internal: { generateId: () => ids.shift() ?? "spare" },
    });
    await runtime.execute({ code: "async () => shop.list({})" });
    await runtime.execute({ code: "async () => shop.list({})" });
    await runtime.execute({ code: "async () => shop.buy({ sku: 'tea' })" });
    await runtime.close();
    const module = join(dir, "app.mjs");
    writeFileSync(
      module,
      `import { createCodemodeRuntime } from ${JSON.stringify(pathToFileURL(resolve("dist/index.js")).href)};
export const runtime = createCodemodeRuntime({ store: ${JSON.stringify(storeUrl)},
  connectors: { shop: { methods: { list: { execute: () => [] }, buy: { needsApproval: true, execute: (args) => ({ order: 9, ...args }) } } } } });
`,
    );
    return { dir, storeUrl, module };
  }

  it("show, pending and approve take a unique prefix of an id (the 8 characters the web list shows)", async () => {
    const { dir, storeUrl, module } = await shortIdStore();
    const at = { now: Date.now(), cwd: dir };
    const shown = await cli(["show", "9f00c1de", "--store", storeUrl], at);
    expect(shown).toMatchObject({ code: 0, stderr: "" });
    expect(shown.stdout).toMatch(/^Execution 9f00c1de-cccc {2}paused/);
    expect(JSON.parse((await cli(["pending", "9F00C1DE", "--json", "--store", storeUrl], at)).stdout)).toMatchObject({
      pending: [{ executionId: "9f00c1de-cccc", seq: 1 }],
    });
    const approved = await cli(["approve", "9f00c1de", "--runtime", module, "--json"], at);
    expect(approved).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(approved.stdout)).toMatchObject({ status: "completed", executionId: "9f00c1de-cccc" });
  });

  it("refuses a prefix shorter than 8 characters, even a unique one, listing what it matches and running nothing", async () => {
    const { dir, storeUrl, module } = await shortIdStore();
    const at = { now: Date.now(), cwd: dir };
    const out = await cli(["approve", "9f", "--runtime", module], at);
    expect(out).toMatchObject({ code: 2, stdout: "" });
    expect(out.stderr).toContain(
      "9f is not an execution id, and a short id must be at least 8 characters (as the executions list shows it)",
    );
    expect(out.stderr).toContain("Ids that start with it: 9f00c1de-cccc.");
    const shown = await cli(["show", "9f00c1de", "--json", "--store", storeUrl], at);
    expect(JSON.parse(shown.stdout)).toMatchObject({ execution: { status: "paused" } });
    expect(await cli(["show", "3347", "--store", storeUrl], at)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("Ids that start with it: 3347ec2d-bbbb, 3347ec2d-aaaa."),
    });
  });

  it("refuses an ambiguous prefix with the candidates (exit code 2), running nothing", async () => {
    const { dir, module } = await shortIdStore();
    const out = await cli(["approve", "3347ec2d", "--runtime", module], { now: Date.now(), cwd: dir });
    expect(out).toMatchObject({ code: 2, stdout: "" });
    expect(out.stderr).toContain(
      "2 executions start with 3347ec2d: 3347ec2d-bbbb, 3347ec2d-aaaa. Give more of the id.",
    );
  });

  it("without --store, says where it looked and names the database files it found", async () => {
    const { dir } = await shortIdStore();
    mkdirSync(join(dir, ".codemode"));
    writeFileSync(join(dir, ".codemode", "example.db"), "");
    const out = await cli(["executions"], { now: Date.now(), cwd: dir });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(
      `No codemode database at ${join(dir, ".codemode", "codemode.db")} (the default: no --store, and neither CODEMODE_DATABASE_URL nor TURSO_DATABASE_URL is set).`,
    );
    expect(out.stderr).toContain(
      "Found here: .codemode/example.db, app.db — e.g. ai-codemode executions --store file:.codemode/example.db.",
    );
    const named = await cli(["executions", "--store", "file:missing.db"], { now: Date.now(), cwd: dir });
    expect(named.stderr).toContain(`No codemode database at ${join(dir, "missing.db")} (--store file:missing.db).`);
  });
});

describe("ai-codemode show, a call approved with changed arguments", () => {
  it("prints the program's arguments and the ones the call ran with", async () => {
    const storeUrl = `file:${join(tempFolder("codemode-cli-edit-"), "codemode.db")}`;
    const runtime = createDurableRuntime({
      store: storeUrl,
      executor: sharedExecutor(),
      connectors: { shop: shopConnector(testClock(), new Promise(() => {})) },
    });
    const paused = await runtime.execute({ code: "async () => shop.tip({ amount: 500 })" });
    expect(await runtime.approve({ executionId: paused.executionId, seq: 1, args: { amount: 50 } })).toMatchObject({
      status: "completed",
    });
    await runtime.close();
    const out = await cli(["show", paused.executionId, "--store", storeUrl], { now: Date.now(), cwd: fixture.dir });
    expect(out.stdout).toMatch(/args {4}\{ amount: 500 \}|args {4}\{"amount":500\}/);
    expect(out.stdout).toContain("ran with");
    expect(out.stdout).toContain("(changed by the approver)");
    expect(out.stdout.slice(out.stdout.indexOf("ran with"))).toMatch(/^ran with \S*.*50/);
  });
});
