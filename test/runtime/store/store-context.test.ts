/**
 * Reading, deciding and listing never create a database: an approver opened without the app's store (no
 * TURSO_DATABASE_URL, the likeliest serverless mistake) gets a not-found that names the store it read and the
 * likely cause, and leaves no `.codemode/codemode.db` behind; only a run creates the local file.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDurableRuntime } from "../../../src/runtime/durable-runtime.js";
import { createMockConnector } from "../../../src/test/index.js";
import { cli } from "../../cli/cli-support.js";
import { startHranaServer, type HranaServer } from "../../support/hrana-server.js";
import { tempFolder } from "../../support/temp-folder.js";
import { sharedExecutor } from "../runtime-fixture.js";

const TOKEN = "store-context-token-42";

function deploy() {
  return createMockConnector("deploy", {
    methods: { ship: { needsApproval: true, result: (args: unknown) => ({ shipped: args }) } },
  });
}

/** Runs `body` with `folder` as the working directory (the default store is relative to it). */
async function inFolder<T>(folder: string, body: () => Promise<T>): Promise<T> {
  const cwd = process.cwd();
  process.chdir(folder);
  try {
    return await body();
  } finally {
    process.chdir(cwd);
  }
}

describe("a runtime on a local database that does not exist yet", () => {
  it("approve, reject, rollback and the listings find nothing and create nothing; the not-found names the store", async () => {
    const folder = tempFolder("codemode-store-context-");
    await inFolder(folder, async () => {
      const runtime = createDurableRuntime({
        connectors: { deploy: deploy() },
        executor: sharedExecutor(),
        _internal: { env: {} },
      });
      try {
        const approved = await runtime.approve({ executionId: "3f2a9c" });
        expect(approved).toMatchObject({ status: "error", kind: "not-found" });
        const { error } = approved as { error: string };
        expect(error).toContain('No execution "3f2a9c" in runtime "default"');
        expect(error).toContain("file:.codemode/codemode.db");
        expect(error).toContain("neither CODEMODE_DATABASE_URL nor TURSO_DATABASE_URL is set");
        expect(error).toContain("which does not exist here yet");
        expect(error).toContain("open the runtime with that store");
        expect(await runtime.reject({ executionId: "3f2a9c" })).toMatchObject({ kind: "not-found" });
        expect(await runtime.rollback({ executionId: "3f2a9c" })).toMatchObject({ kind: "not-found" });
        expect(await runtime.pending()).toEqual([]);
        expect(await runtime.executions()).toEqual([]);
        expect(await runtime.execution("3f2a9c")).toBeUndefined();
        expect(existsSync(join(folder, ".codemode"))).toBe(false);
        // A run creates it.
        const paused = await runtime.execute({ code: "async () => deploy.ship({ n: 1 })" });
        expect(paused).toMatchObject({ status: "paused" });
        expect(existsSync(join(folder, ".codemode", "codemode.db"))).toBe(true);
        const missing = (await runtime.approve({ executionId: "3f2a9c" })) as { error: string };
        expect(missing.error).not.toContain("does not exist");
        expect(await runtime.approve({ executionId: paused.executionId })).toMatchObject({ status: "completed" });
      } finally {
        await runtime.close();
      }
    });
  });

  it("an explicit file that does not exist is not created by reading it", async () => {
    const folder = tempFolder("codemode-store-context-");
    const runtime = createDurableRuntime({ store: `file:${join(folder, "app.db")}`, executor: sharedExecutor() });
    try {
      expect(await runtime.approve({ executionId: "abc" })).toMatchObject({ kind: "not-found" });
      expect(await runtime.executions()).toEqual([]);
      expect(existsSync(join(folder, "app.db"))).toBe(false);
    } finally {
      await runtime.close();
    }
  });

  it("the CLI's show and pending report the missing file and create nothing", async () => {
    const folder = tempFolder("codemode-store-context-");
    for (const args of [["show", "3f2a9c"], ["pending"], ["executions"]]) {
      const run = await cli(args, { now: 0, cwd: folder });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain("No codemode database at");
    }
    expect(existsSync(join(folder, ".codemode"))).toBe(false);
  });
});

describe("a not-found on a remote store", () => {
  let hrana: HranaServer;
  let folder = "";
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "codemode-store-context-remote-"));
    hrana = await startHranaServer({ path: join(folder, "db.sqlite"), authToken: TOKEN });
  });
  afterAll(async () => {
    await hrana.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("names the database (without its token) and the variable it came from", async () => {
    const url = hrana.databaseUrl("notfound");
    const runtime = createDurableRuntime({
      executor: sharedExecutor(),
      _internal: { env: { TURSO_DATABASE_URL: url, TURSO_AUTH_TOKEN: TOKEN } },
    });
    try {
      const { error } = (await runtime.approve({ executionId: "3f2a9c" })) as { error: string };
      expect(error).toContain(`${url} (TURSO_DATABASE_URL)`);
      expect(error).not.toContain(TOKEN);
    } finally {
      await runtime.close();
    }
  });
});
