/**
 * Cold start: importing the package loads no database driver; the first
 * statement loads the one its URL needs (`libsql` for `file:`, none for a plain
 * remote URL, which the store's own Hrana client serves, one transport of
 * `@libsql/client` for other remote URLs). Observed on the built package with a
 * module resolve hook (for `import` and `require` alike) that logs every specifier, in a fresh process.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let folder = "";

const HOOKS = `
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";
registerHooks({
  resolve(specifier, context, next) {
    appendFileSync(process.env.RESOLVE_LOG, specifier + "\\n");
    return next(specifier, context);
  },
});
`;

/** Imports the package and, given `store`, runs one program on it; returns the bare specifiers resolved. */
function specifiersResolved(store: string | undefined): string[] {
  const log = join(folder, `resolved-${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(log, "");
  const entry = pathToFileURL(resolve("dist/index.js")).href;
  const program =
    store === undefined
      ? `await import(${JSON.stringify(entry)});`
      : `const { createCodemodeRuntime, QuickJSExecutor } = await import(${JSON.stringify(entry)});
       const executor = new QuickJSExecutor({ isolation: "in-process" });
       const runtime = createCodemodeRuntime({ store: ${JSON.stringify(store)}, executor });
       await runtime.execute({ code: "1" });
       await runtime.close();
       await executor.dispose();`;
  execFileSync(
    process.execPath,
    ["--import", pathToFileURL(join(folder, "register.mjs")).href, "--input-type=module", "-e", program],
    {
      env: { ...process.env, RESOLVE_LOG: log },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((specifier) => specifier !== "" && !/^[./]|^file:|^node:/.test(specifier));
}

describe("database drivers are imported at the first statement, for the URL kind in use", () => {
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "codemode-driver-import-"));
    writeFileSync(join(folder, "hooks.mjs"), HOOKS);
    writeFileSync(
      join(folder, "register.mjs"),
      `import ${JSON.stringify(pathToFileURL(join(folder, "hooks.mjs")).href)};`,
    );
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("importing the package loads neither libsql nor @libsql/client", () => {
    const resolved = specifiersResolved(undefined);
    expect(resolved).toContain("quickjs-emscripten-core");
    expect(resolved).not.toContain("libsql");
    expect(resolved).not.toContain("@libsql/client");
  });

  it("importing the package loads neither the program parser nor the JSON Schema validator (the first run does)", () => {
    expect(specifiersResolved(undefined)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^(acorn|@cfworker\/json-schema)$/)]),
    );
    expect(specifiersResolved(`file:${join(folder, "parser.sqlite")}`)).toContain("acorn");
  });

  it("a file: store loads the embedded driver only", () => {
    const resolved = specifiersResolved(`file:${join(folder, "db.sqlite")}`);
    expect(resolved).toContain("libsql");
    expect(resolved).not.toContain("@libsql/client");
  });

  it("a plain remote URL loads no database package (the store's own Hrana client serves it)", () => {
    // Port 9 refuses the connection; the run fails as a store error after the client was loaded.
    const resolved = specifiersResolved("http://127.0.0.1:9");
    expect(resolved.filter((specifier) => /libsql|^ws$/.test(specifier))).toEqual([]);
  });

  it("a remote URL with parameters loads the HTTP transport of @libsql/client only, not its embedded driver", () => {
    const resolved = specifiersResolved("http://127.0.0.1:9?tls=0");
    expect(resolved).toContain("@libsql/client/http");
    expect(resolved).not.toContain("@libsql/client");
    expect(resolved).not.toContain("libsql");
  });
});
