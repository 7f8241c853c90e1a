/**
 * The direction of the imports (`docs/ARCHITECTURE.md`), checked on every file of `src/`: the rules a reader of
 * the folders relies on. Cycles are checked by `madge --circular` in `npm test` (`npm run cycles`); this file
 * checks who may import whom. Every import counts, type-only ones included.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../../src");

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Each file of `src/` (relative, e.g. `runtime/pass/run-pass.ts`) with what it imports: packages by name, our modules by path. */
const IMPORTS = new Map(
  sourceFiles(SRC).map((file) => {
    const specifiers = ts
      .preProcessFile(readFileSync(file, "utf8"), true, true)
      .importedFiles.map((item) => item.fileName);
    const targets = specifiers.map((specifier) =>
      specifier.startsWith(".") ? relative(SRC, resolve(dirname(file), specifier)).replace(/\.js$/, ".ts") : specifier,
    );
    return [relative(SRC, file), targets] as const;
  }),
);

/** The imports of files under `folder` that `allowed` refuses, as `file → target`. */
function violations(folder: string, allowed: (target: string, file: string) => boolean): string[] {
  return [...IMPORTS].flatMap(([file, targets]) =>
    file.startsWith(folder)
      ? targets.filter((target) => !allowed(target, file)).map((target) => `${file} → ${target}`)
      : [],
  );
}

const isPackage = (target: string) => !target.includes("/") || target.startsWith("@") || !target.endsWith(".ts");

describe("import rules", () => {
  it("reads the files of src/", () => {
    expect(IMPORTS.get("runtime/pass/run-pass.ts")).toContain("runtime/pass/pass-context.ts");
  });

  it("only src/runtime/store/ imports @libsql/client, another @libsql/ package or libsql (types included)", () => {
    const isDriver = (target: string) =>
      target.startsWith("@libsql/") || target === "libsql" || target.startsWith("libsql/");
    const drivers = [...IMPORTS].flatMap(([file, targets]) =>
      !file.startsWith("runtime/store/") ? targets.filter(isDriver).map((target) => `${file} → ${target}`) : [],
    );
    expect(drivers).toEqual([]);
  });

  it("no file outside src/runtime/store/ holds SQL", () => {
    const SQL =
      /\b(SELECT\s+[\w*]|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX)|PRAGMA\s+\w)/;
    const withSql = [...IMPORTS.keys()].filter(
      (file) => !file.startsWith("runtime/store/") && SQL.test(readFileSync(join(SRC, file), "utf8")),
    );
    expect(withSql).toEqual([]);
    // The pattern finds the store's own statements (so an empty list above means something).
    expect(SQL.test(readFileSync(join(SRC, "runtime/store/call-statements.ts"), "utf8"))).toBe(true);
  });

  it("outside src/runtime/store/, only its entry points are imported (no SQL builder, no row module, no driver type)", () => {
    const entryPoints = ["runtime/store/libsql-journal-store.ts", "runtime/store/connection/open-store.ts"];
    const outside = [...IMPORTS].flatMap(([file, targets]) =>
      file.startsWith("runtime/store/")
        ? []
        : targets
            .filter((target) => target.startsWith("runtime/store/") && !entryPoints.includes(target))
            .map((t) => `${file} → ${t}`),
    );
    expect(outside).toEqual([]);
  });

  it("the store imports only the journal's contract, errors/ and shared/ of ours", () => {
    expect(
      violations(
        "runtime/store/",
        (target) =>
          isPackage(target) ||
          ["runtime/store/", "runtime/journal/", "errors", "shared/"].some((folder) => target.startsWith(folder)),
      ),
    ).toEqual([]);
  });

  it("the journal layer imports no runtime module above it", () => {
    expect(
      violations(
        "runtime/journal/",
        (target) =>
          isPackage(target) ||
          ["runtime/journal/", "sandbox/codec/", "errors", "shared/"].some((folder) => target.startsWith(folder)),
      ),
    ).toEqual([]);
  });

  it("a pass never imports the handle's operations: from the runtime's root, only the public types and call states", () => {
    expect(
      violations(
        "runtime/pass/",
        (target) =>
          !target.startsWith("runtime/") ||
          target.startsWith("runtime/pass/") ||
          target.startsWith("runtime/journal/") ||
          target.startsWith("runtime/tracing/") ||
          target === "runtime/types.ts" ||
          target === "runtime/call-state.ts",
      ),
    ).toEqual([]);
  });

  it("the sandbox imports neither the runtime, the store nor the connectors; connectors never import the runtime", () => {
    expect(
      violations(
        "sandbox/",
        (target) => !["runtime/", "connectors/", "ai/"].some((folder) => target.startsWith(folder)),
      ),
    ).toEqual([]);
    expect(
      violations("connectors/", (target) => !["runtime/", "ai/"].some((folder) => target.startsWith(folder))),
    ).toEqual([]);
  });

  it("inside the sandbox, the codec and a program's preparation import neither a QuickJS session nor a worker", () => {
    for (const folder of ["sandbox/codec/", "sandbox/program/"]) {
      expect(
        violations(
          folder,
          (target) => !["sandbox/quickjs/", "sandbox/worker/", "sandbox/context/"].some((f) => target.startsWith(f)),
        ),
      ).toEqual([]);
    }
  });

  it("only src/ai/, src/mcp/ and src/workflow/ import values from `ai`; elsewhere its types, and the tool-set connector its asSchema", () => {
    const importers = [...IMPORTS].flatMap(([file, targets]) => (targets.includes("ai") ? [file] : []));
    const valueImport = /^import\s+(?!type\s)[^;]*?from\s*"ai";/m;
    const stray = importers.filter(
      (file) =>
        !file.startsWith("ai/") &&
        !file.startsWith("mcp/") &&
        // The workflow entry is an integration layer like src/ai/ (its tool's input schema).
        !file.startsWith("workflow/") &&
        valueImport.test(readFileSync(join(SRC, file), "utf8")),
    );
    expect(stray).toEqual(["connectors/tool-set-connector.ts"]);
  });

  it("no file of src/ imports an @ai-sdk/ package but the MCP proxy's optional peer", () => {
    const importers = [...IMPORTS].flatMap(([file, targets]) =>
      targets.filter((target) => target.startsWith("@ai-sdk/")).map((target) => `${file} → ${target}`),
    );
    expect(importers.filter((line) => !/→ @ai-sdk\/mcp(\/|$)/.test(line))).toEqual([]);
  });

  it("search lives in one place: nothing outside src/connectors/search/ holds a search module", () => {
    const stray = [...IMPORTS.keys()].filter(
      (file) =>
        /(^|\/)(catalog|search)[-.]/.test(file.split("/").pop() ?? "") && !file.startsWith("connectors/search/"),
    );
    // The AI SDK's side of the `search` option (its embedding model): only src/ai imports `ai`.
    expect(stray).toEqual(["ai/search-options.ts"]);
  });
});
