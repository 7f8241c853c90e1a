/**
 * The drop-in on a serverless filesystem: an unprivileged user (`nobody`, via
 * `setpriv`) in a working directory it cannot write, like Vercel's `/var/task`.
 * The built package runs from a world-readable copy in a temp folder, its dependencies too when the checkout is
 * in a folder `nobody` cannot enter (a clone under root's home, or `mktemp -d`).
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const NOBODY = ["--reuid=nobody", "--regid=nogroup", "--clear-groups"];

/** Why the test cannot run here, or undefined: it needs root to switch users, and a Node `nobody` may run. */
function unavailable(): string | undefined {
  if (process.getuid?.() !== 0) return "switching to an unprivileged user needs root (setpriv)";
  const probe = spawnSync("setpriv", [...NOBODY, process.execPath, "-e", "0"], { cwd: "/", encoding: "utf8" });
  if (probe.status !== 0) {
    return `the user nobody cannot run this Node (${process.execPath}: ${probe.error?.message ?? probe.stderr.trim()}); run the suite with a Node installed where every user can run it`;
  }
  return undefined;
}

const skipped = unavailable();
if (skipped !== undefined) console.log(`read-only-filesystem.process.test.ts skipped: ${skipped}`);

/** Whether every folder above `path` (as written, and once its links are resolved) is searchable by other users. */
function openToEveryone(path: string): boolean {
  for (const start of [path, realpathSync(path)]) {
    for (let folder = dirname(start); ; folder = dirname(folder)) {
      if ((statSync(folder).mode & 0o001) === 0) return false;
      if (dirname(folder) === folder) break;
    }
  }
  return (statSync(path).mode & 0o004) !== 0;
}

/**
 * The packages the built package needs at run time (its dependencies and peers, and theirs, as installed), copied
 * from `from` into `to`: what a child that cannot read the checkout's own `node_modules` runs from.
 */
function copyRuntimeDependencies(from: string, to: string): void {
  const manifest = (folder: string) =>
    JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as Record<
      string,
      Record<string, string> | undefined
    >;
  const names = (pkg: ReturnType<typeof manifest>, keys: string[]) =>
    keys.flatMap((key) => Object.keys(pkg[key] ?? {}));
  const pending = names(manifest("."), ["dependencies", "peerDependencies"]);
  const copied = new Set<string>();
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const source = join(from, name);
    if (copied.has(name) || !existsSync(source)) continue;
    copied.add(name);
    cpSync(source, join(to, name), { recursive: true, dereference: true });
    pending.push(...names(manifest(source), ["dependencies", "optionalDependencies", "peerDependencies"]));
  }
}

let root = "";

/** The program the unprivileged child runs: construct, then the first execution. */
const CHILD = `
import { existsSync } from "node:fs";
import { codemodeTool, createCodemodeRuntime } from "../pkg/dist/index.js";
const tool = codemodeTool({ tools: {} });
const runtime = createCodemodeRuntime({});
// The tool yields progress snapshots, then its final output.
let first;
for await (const value of await tool.execute({ code: "async () => 6 * 7" }, { toolCallId: "call_1", messages: [] })) first = value;
const viaRuntime = await runtime.execute({ code: "1" });
console.log(JSON.stringify({ first, viaRuntime, createdFolder: existsSync(".codemode") }));
process.exit(0);
`;

function runAsNobody(env: Record<string, string>): Record<string, unknown> {
  const output = execFileSync("setpriv", [...NOBODY, process.execPath, "check.mjs"], {
    cwd: join(root, "app"),
    env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: join(root, "app"), ...env },
    encoding: "utf8",
  });
  return JSON.parse(output.trim().split("\n").at(-1) ?? "{}") as Record<string, unknown>;
}

describe.skipIf(skipped !== undefined)("on a read-only working directory, as an unprivileged user", () => {
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "codemode-readonly-"));
    chmodSync(root, 0o755);
    // The built package (the global setup built dist/) with its dependencies, readable by everyone.
    mkdirSync(join(root, "pkg"));
    cpSync(resolve("dist"), join(root, "pkg", "dist"), { recursive: true });
    cpSync(resolve("package.json"), join(root, "pkg", "package.json"));
    const modules = realpathSync(resolve("node_modules"));
    // A checkout `nobody` cannot enter (root's home, a private temp folder): copy what the package needs instead.
    if (openToEveryone(join(modules, "quickjs-emscripten-core", "package.json")))
      symlinkSync(modules, join(root, "pkg", "node_modules"));
    else copyRuntimeDependencies(modules, join(root, "pkg", "node_modules"));
    mkdirSync(join(root, "app"));
    writeFileSync(join(root, "app", "check.mjs"), CHILD);
    chmodSync(join(root, "app"), 0o555);
    mkdirSync(join(root, "writable"));
    chmodSync(join(root, "writable"), 0o777);
  });
  afterAll(() => {
    if (root !== "") rmSync(root, { recursive: true, force: true });
  });

  it("constructs, and the first execution without a store says to configure Turso", () => {
    const { first, viaRuntime, createdFolder } = runAsNobody({});
    expect(first).toMatchObject({ status: "error", kind: "store" });
    const { error } = first as { error: string };
    expect(error).toContain("No database is configured");
    expect(error).toContain("EACCES");
    expect(error).not.toContain("EACCES: EACCES");
    expect(error).toContain("TURSO_DATABASE_URL and TURSO_AUTH_TOKEN (or CODEMODE_DATABASE_URL)");
    expect(error).toContain("cannot carry a paused execution from one serverless instance to another");
    expect(error).not.toContain("Try again later");
    expect(viaRuntime).toMatchObject({ status: "error", kind: "store", error });
    expect(createdFolder).toBe(false);
  });

  it("works with CODEMODE_DATABASE_URL pointing at a writable path", () => {
    const database = join(root, "writable", "codemode.db");
    const { first, viaRuntime } = runAsNobody({ CODEMODE_DATABASE_URL: `file:${database}` });
    expect(first).toMatchObject({ status: "completed", result: 42 });
    expect(viaRuntime).toMatchObject({ status: "completed", result: 1 });
    expect(existsSync(database)).toBe(true);
  });
});
