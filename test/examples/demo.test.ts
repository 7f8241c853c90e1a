/**
 * The main job, as a newcomer gets it: the package packed with `npm pack`, installed into a
 * fresh folder with the demo's files, and `node demo.mjs` run there without a key. Checks what
 * it prints and what it leaves in the embedded database.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createClient } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCodemodeRuntime } from "../../src/index.js";

const root = resolve(import.meta.dirname, "../..");
const work = mkdtempSync(join(tmpdir(), "codemode-demo-"));
const versions = JSON.parse(
  execFileSync("npm", ["pkg", "get", "devDependencies"], { cwd: root, encoding: "utf8" }),
) as Record<string, string>;

function runDemo(...flags: string[]): string {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  delete env["OPENAI_API_KEY"];
  delete env["CODEMODE_DATABASE_URL"];
  delete env["TURSO_DATABASE_URL"];
  const result = spawnSync(process.execPath, ["demo.mjs", ...flags], {
    cwd: work,
    env,
    encoding: "utf8",
    timeout: 120_000,
  });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0) throw new Error(`demo ${flags.join(" ")} exited ${result.status}:\n${output}`);
  return output;
}

describe("npm run demo from a packed tarball", () => {
  beforeAll(() => {
    // dist/ was built by the global setup; --ignore-scripts keeps prepack from rebuilding it under the other tests.
    const packed = execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", work], {
      cwd: root,
      encoding: "utf8",
    })
      .trim()
      .split("\n")
      .at(-1)!;
    cpSync(join(root, "examples/demo"), work, { recursive: true });
    writeFileSync(
      join(work, "package.json"),
      JSON.stringify({
        name: "demo-check",
        private: true,
        type: "module",
        dependencies: {
          "ai-codemode": `file:./${packed}`,
          ai: versions["ai"],
          zod: versions["zod"],
          // The demo's issue tracker is the app's own table, on its own libSQL client (an optional peer of ours).
          "@libsql/client": versions["@libsql/client"],
          "@ai-sdk/mcp": versions["@ai-sdk/mcp"],
          "@modelcontextprotocol/server-memory": versions["@modelcontextprotocol/server-memory"],
        },
      }),
    );
    execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: work,
      stdio: "ignore",
    });
  }, 300_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("pauses, approves in a separate process, and files the issue exactly once", async () => {
    const output = runDemo();
    expect(output).toMatch(/✓ completed → \["tracker\.list_issues","tracker\.create_issue"/); // codemode.search
    expect(output).toContain("declare const tracker: {"); // codemode.describe
    expect(output).toContain("paused: 1 call(s) need approval");
    expect(output).toContain("starting a separate process to approve");
    expect(output).toMatch(/Filed issue #5 .* assigned to ada\./);
    expect(output).toMatch(/tracker\.list_issues\s+applied\s+executed once, replayed ×1/);
    expect(output).toMatch(/tracker\.create_issue\s+applied\s+executed\s/);
    expect(output).toContain("✓ tracking issues in the tracker: 1 (expected 1)");

    const url = `file:${join(work, ".codemode/codemode.db")}`;
    const db = createClient({ url });
    const issues = await db.execute("SELECT title, assignee FROM demo_issues WHERE labels LIKE '%tracking%'");
    expect(issues.rows).toHaveLength(1);
    expect(issues.rows[0]?.["assignee"]).toBe("ada");
    const integrity = await db.execute("PRAGMA integrity_check");
    expect(integrity.rows[0]?.[0]).toBe("ok");
    db.close();

    const runtime = createCodemodeRuntime({ store: url, name: "demo" });
    const completed = (await runtime.executions()).filter((execution) => execution.status === "completed");
    const main = await runtime.execution(completed.find((execution) => execution.passes === 2)!.executionId);
    expect(main?.calls.map((call) => `${call.connector}.${call.method}:${call.status}`)).toEqual([
      "tracker.list_issues:applied",
      "memory.search_nodes:applied",
      "tracker.create_issue:applied",
    ]);
    await runtime.close();
    expect(readdirSync(work)).toContain("node_modules");
  });

  it("shows the reject and rollback paths", () => {
    const rejected = runDemo("--reject");
    expect(rejected).toContain("✗ rejected");
    expect(rejected).toContain("The tracking issue was not filed");
    expect(rejected).toContain("✓ tracking issues in the tracker: 0 (expected 0)");

    const rolledBack = runDemo("--rollback");
    expect(rolledBack).toMatch(/✓ reverted calls 3/);
    expect(rolledBack).toContain("✓ tracking issues in the tracker: 0 (expected 0)");
  });
});
