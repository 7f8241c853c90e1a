/**
 * `@libsql/client` is an optional peer: the built package, in a fresh process whose resolve hook makes it
 * unresolvable from the package (as when it is not installed), still runs on a `file:` store and on a plain remote
 * URL (the store's own drivers), and refuses what needs the peer (`ws:`/`wss:`, a URL with parameters) with a
 * `kind: "store"` error naming the package and the command that installs it, never the URL.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHranaServer, type HranaServer } from "../../../support/hrana-server.js";
import { tempFolder } from "../../../support/temp-folder.js";

const DIST = pathToFileURL(resolve("dist")).href;

/** Node's own error for a package that is not installed, for `@libsql/client` imported from the package. */
const HOOKS = `
import { registerHooks } from "node:module";
registerHooks({
  resolve(specifier, context, next) {
    const fromPackage = (context.parentURL ?? "").startsWith(${JSON.stringify(DIST)});
    if (fromPackage && (specifier === "@libsql/client" || specifier.startsWith("@libsql/client/"))) {
      const error = new Error("Cannot find package '@libsql/client' imported from " + context.parentURL);
      throw Object.assign(error, { code: "ERR_MODULE_NOT_FOUND" });
    }
    return next(specifier, context);
  },
});
`;

let server: HranaServer;
let serverFolder = "";

beforeAll(async () => {
  serverFolder = mkdtempSync(join(tmpdir(), "codemode-no-libsql-client-server-"));
  server = await startHranaServer({ path: join(serverFolder, "remote.db") });
});
afterAll(async () => {
  await server.close();
  rmSync(serverFolder, { recursive: true, force: true });
});

/**
 * Runs one program on `store` in the package without `@libsql/client`; the outcome as the runtime reports it. The
 * child is awaited, not waited for synchronously: the Hrana test server answers it from this process.
 */
async function runWithoutPeer(
  folder: string,
  store: string,
): Promise<{ status: string; kind?: string; error?: string }> {
  writeFileSync(join(folder, "hooks.mjs"), HOOKS);
  const entry = pathToFileURL(resolve("dist/index.js")).href;
  const program = `const { createCodemodeRuntime, QuickJSExecutor } = await import(${JSON.stringify(entry)});
const executor = new QuickJSExecutor({ isolation: "in-process" });
const runtime = createCodemodeRuntime({ store: ${JSON.stringify(store)}, executor });
const out = await runtime.execute({ code: "async () => 6 * 7" });
await runtime.close();
process.stdout.write(JSON.stringify(out));`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", pathToFileURL(join(folder, "hooks.mjs")).href, "--input-type=module", "-e", program],
    { cwd: folder, encoding: "utf8", timeout: 60_000 },
  );
  return JSON.parse(stdout) as { status: string; kind?: string; error?: string };
}

describe("without @libsql/client installed", () => {
  it("runs on a file: store", async () => {
    const folder = tempFolder("codemode-no-libsql-client-");
    expect(await runWithoutPeer(folder, `file:${join(folder, "journal.db")}`)).toMatchObject({ status: "completed" });
  });

  it("runs on a plain remote URL (the store's own Hrana client)", async () => {
    const folder = tempFolder("codemode-no-libsql-client-");
    expect(await runWithoutPeer(folder, server.databaseUrl("plain"))).toMatchObject({ status: "completed" });
  });

  it.each([
    ["ws://127.0.0.1:9/db", "A ws: store URL"],
    ["wss://secret-host.example/db", "A wss: store URL"],
    ["http://127.0.0.1:9/db?authToken=secret-token", "A http: store URL with parameters"],
  ])("refuses %s as a store error naming the package and its install command", async (url, what) => {
    const folder = tempFolder("codemode-no-libsql-client-");
    const out = await runWithoutPeer(folder, url);
    expect(out).toMatchObject({ status: "error", kind: "store" });
    expect(out.error).toContain(`${what} needs @libsql/client, which is not installed: npm install @libsql/client`);
    expect(out.error).not.toMatch(/secret|chunk-|Cannot find package/);
  });

  it("refuses a file: URL with parameters the same way", async () => {
    const folder = tempFolder("codemode-no-libsql-client-");
    const out = await runWithoutPeer(folder, `file:${join(folder, "journal.db")}?mode=rwc`);
    expect(out).toMatchObject({ status: "error", kind: "store" });
    expect(out.error).toContain(
      "A file: store URL with parameters needs @libsql/client, which is not installed: npm install @libsql/client",
    );
  });
});
