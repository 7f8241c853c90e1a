import { execFile } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";
import { createJournalFixture, type JournalFixture } from "../inspector/journal-fixture.js";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");
const bin = join(root, "dist/cli.js");
const distIndex = pathToFileURL(join(root, "dist/index.js")).href;

let fixture: JournalFixture;

beforeAll(async () => {
  fixture = await createJournalFixture();
});
afterAll(() => fixture.cleanup());

/** The app module: the same connector names as the fixture, on the fixture's store. */
function appModule(store: string): string {
  return `import { createCodemodeRuntime } from ${JSON.stringify(distIndex)};
export const runtime = createCodemodeRuntime({
  store: ${JSON.stringify(store)},
  connectors: { shop: { methods: {
    list: { execute: () => [{ sku: "tea", price: 4 }, { sku: "<b>cake</b>", price: 6 }] },
    buy: { needsApproval: true, execute: (args) => ({ order: 8, ...args }), revert: () => undefined },
    refund: { execute: () => { throw new Error("no"); } },
    wait: { execute: () => "done" },
  } } },
});
`;
}

async function ai(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      cwd,
      env: { PATH: process.env["PATH"] ?? "" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("the ai-codemode executable (dist/cli.js, the package's bin)", () => {
  it("prints help and the executions table", async () => {
    expect((await ai(["--help"], fixture.dir)).stdout).toContain("Usage: ai-codemode <command> [options]");
    const out = await ai(["executions", "--store", fixture.storeUrl], fixture.dir);
    expect(out.code).toBe(0);
    expect(out.stdout.split("\n")[0]).toMatch(/^ID +STATUS +PASSES +CALLS +STARTED +DURATION +SUMMARY$/);
    expect(out.stdout).toContain(`${fixture.ids.paused}  paused (1 pending)`);
  });

  it("refuses a TypeScript --runtime it cannot load, saying how to load it", async () => {
    // An enum needs a transform: Node 20 cannot import .ts at all, Node >= 22.18 only strips types.
    writeFileSync(
      join(fixture.dir, "app.ts"),
      `enum Mode { Approve }\nvoid Mode.Approve;\n${appModule(fixture.storeUrl)}`,
    );
    const out = await ai(["approve", fixture.ids.paused, "--runtime", "app.ts"], fixture.dir);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("--runtime");
    expect(out.stderr).toContain(
      "install tsx in the app (npm install -D tsx), or run the CLI with a loader (node --import tsx",
    );
    expect((await fixture.runtime.execution(fixture.ids.paused))?.status).toBe("paused");
  });

  it("approves with the app's runtime from a .mjs module", async () => {
    writeFileSync(join(fixture.dir, "app.mjs"), appModule(fixture.storeUrl));
    const out = await ai(["approve", fixture.ids.paused, "--runtime", "app.mjs"], fixture.dir);
    expect(out).toMatchObject({ code: 0, stderr: "" });
    expect(out.stdout).toBe(
      `Execution ${fixture.ids.paused} completed.\nResult  {"order":8,"sku":"tea","quantity":2}\nLogs    bought 8\n`,
    );
    expect((await fixture.runtime.execution(fixture.ids.paused))?.status).toBe("completed");
  });

  it("rolls back with the app's runtime from a .ts module, loaded through the app's tsx", async () => {
    writeFileSync(join(fixture.dir, "app.ts"), appModule(fixture.storeUrl));
    const out = await ai(["rollback", fixture.ids.approved, "--runtime", join(fixture.dir, "app.ts"), "--json"], root);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({
      status: "rolled_back",
      executionId: fixture.ids.approved,
      reverted: [2],
      skipped: [1],
      errors: [],
    });
    const missing = await ai(["rollback", "nope", "--runtime", join(fixture.dir, "app.mjs")], fixture.dir);
    expect(missing).toMatchObject({
      code: 1,
      stdout: expect.stringMatching(
        /^Execution nope: not-found: No execution "nope" in runtime "default" of the store file:/,
      ),
    });
  });
});

describe("--runtime in an app whose TypeScript imports use the nodenext style", () => {
  it("loads ./src/bank-revert.ts importing ./bank.js through the app's tsx (Node's type stripping alone cannot)", async () => {
    const app = join(fixture.dir, "nodenext-app");
    mkdirSync(join(app, "src"), { recursive: true });
    // The app's own dependencies, tsx among them (as `npm install -D tsx` leaves them).
    symlinkSync(join(root, "node_modules"), join(app, "node_modules"), "dir");
    writeFileSync(
      join(app, "src", "bank.ts"),
      `export const bank: { methods: Record<string, { execute: () => unknown; revert?: () => void }> } = {
  methods: { list: { execute: () => [] }, buy: { execute: () => ({}), revert: () => undefined } },
};
`,
    );
    writeFileSync(
      join(app, "src", "bank-revert.ts"),
      `import { createCodemodeRuntime } from ${JSON.stringify(distIndex)};
import { bank } from "./bank.js";
export const runtime = createCodemodeRuntime({ store: ${JSON.stringify(fixture.storeUrl)}, connectors: { shop: bank } });
`,
    );
    const out = await ai(["pending", "--runtime", "./src/bank-revert.ts", "--json"], app);
    expect(out).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(out.stdout)).toHaveProperty("pending");
  });
});

describe("ai-codemode inspect --web", () => {
  it("serves the page and the API on 127.0.0.1, read-only without --runtime, until stopped", async () => {
    const stop = new AbortController();
    let url = "";
    let printed = "";
    let listened: () => void = () => {};
    const listening = new Promise<void>((resolveListening) => {
      listened = resolveListening;
    });
    const exited = runCli(["inspect", "--web", "--port", "0", "--store", fixture.storeUrl], {
      stdout: (text) => {
        printed += text;
      },
      stderr: (text) => {
        printed += text;
      },
      env: {},
      cwd: fixture.dir,
      now: () => fixture.clock.now(),
      signal: stop.signal,
      onListening: (address) => {
        url = address;
        listened();
      },
    });
    await listening;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(printed).toContain("(read-only: pass --runtime <module> to approve, reject and roll back)");
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<title>ai-codemode inspector</title>");
    const list = (await (await fetch(`${url}api/executions?status=running`)).json()) as {
      executions: Array<{ executionId: string }>;
    };
    expect(list.executions.map((row) => row.executionId)).toEqual([fixture.ids.running]);
    const approve = await fetch(`${url}api/executions/${fixture.ids.rejected}/reject`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(approve.status).toBe(403);
    stop.abort();
    expect(await exited).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });
});
