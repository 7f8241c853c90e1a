/**
 * `--runtime <module>[#export]`: loads the app's module and finds its runtime (an
 * export that is a runtime handle, or a function returning one). A TypeScript module
 * loads through the `tsx` the app has installed (its programmatic `tsImport`, found
 * from the module's folder, then the working directory), which resolves what Node's
 * own type stripping does not: `nodenext`-style imports (`./bank.js` naming `bank.ts`),
 * enums, parameter properties. Without tsx, Node imports it if it can (type stripping,
 * or `node --import tsx`); otherwise the CLI says how to load it.
 */
import { messageOf } from "../shared/message-of.js";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { isInspectorRuntime, type InspectorRuntime } from "../inspector/inspector-runtime.js";

/** The outcome of loading `--runtime`. */
export type LoadedRuntime = { ok: true; runtime: InspectorRuntime } | { ok: false; error: string };

const TYPESCRIPT = /\.(ts|mts|cts|tsx)$/;
/**
 * Node could not import a TypeScript file itself: no type stripping (Node 20), syntax that stripping alone
 * cannot handle (an `enum`, parameter properties: Node ≥ 22.18 strips types by default), or an import of
 * `./x.js` that only exists as `./x.ts` (TypeScript's `nodenext` style, which stripping does not map).
 */
const NEEDS_TRANSFORM = new Set([
  "ERR_UNKNOWN_FILE_EXTENSION",
  "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX",
  "ERR_MODULE_NOT_FOUND",
]);
const PREFERRED_EXPORTS = ["runtime", "default"];

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null ? (error as { code?: string }).code : undefined;
}

/** The ESM entry of `tsx/esm/api` in the app's `node_modules` (searched upward from `cwd`), if tsx is installed. */
function tsxApiEntry(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const manifest = join(dir, "node_modules", "tsx", "package.json");
    if (existsSync(manifest)) {
      const { exports } = JSON.parse(readFileSync(manifest, "utf8")) as { exports?: Record<string, unknown> };
      const api = exports?.["./esm/api"] as { import?: { default?: string } | string } | undefined;
      const target = typeof api?.import === "string" ? api.import : api?.import?.default;
      return target === undefined ? undefined : join(dirname(manifest), target);
    }
    if (dirname(dir) === dir) return undefined;
  }
}

async function importWithTsx(api: string, file: string, cwd: string): Promise<Record<string, unknown>> {
  const { tsImport } = (await import(pathToFileURL(api).href)) as {
    tsImport: (specifier: string, parent: string) => Promise<Record<string, unknown>>;
  };
  return tsImport(pathToFileURL(file).href, pathToFileURL(resolve(cwd, "index.js")).href);
}

async function importModule(file: string, cwd: string): Promise<Record<string, unknown> | string> {
  const typescript = TYPESCRIPT.test(file);
  // The app's tsx first: it loads everything Node's type stripping loads, and the imports stripping cannot resolve.
  const tsx = typescript ? (tsxApiEntry(dirname(file)) ?? tsxApiEntry(cwd)) : undefined;
  if (tsx !== undefined) {
    try {
      return await importWithTsx(tsx, file, cwd);
    } catch (error) {
      return `Could not load --runtime ${file} with tsx (${tsx}): ${messageOf(error)}`;
    }
  }
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    if (!typescript || !NEEDS_TRANSFORM.has(errorCode(error) ?? ""))
      return `Could not load --runtime ${file}: ${messageOf(error)}`;
    return (
      `--runtime ${file} is TypeScript, and this Node cannot import it (${messageOf(error)}): install tsx in the app ` +
      "(npm install -D tsx), or run the CLI with a loader (node --import tsx node_modules/.bin/ai-codemode …), " +
      "or point --runtime at a .js/.mjs build."
    );
  }
}

async function runtimeFrom(value: unknown): Promise<InspectorRuntime | undefined> {
  if (isInspectorRuntime(value)) return value;
  if (typeof value === "function" && value.length === 0) {
    const made: unknown = await (value as () => unknown)();
    if (isInspectorRuntime(made)) return made;
  }
  return undefined;
}

/** Loads `spec` (`path/to/module[#exportName]`, relative to `cwd`) and returns the runtime it exports. */
export async function loadRuntimeModule(spec: string, cwd: string): Promise<LoadedRuntime> {
  const hash = spec.lastIndexOf("#");
  const path = hash > 0 ? spec.slice(0, hash) : spec;
  const exportName = hash > 0 ? spec.slice(hash + 1) : undefined;
  const file = resolve(cwd, path);
  if (!existsSync(file)) return { ok: false, error: `--runtime ${path}: no such file (resolved to ${file}).` };
  const loaded = await importModule(file, cwd);
  if (typeof loaded === "string") return { ok: false, error: loaded };
  const names = exportName === undefined ? Object.keys(loaded) : [exportName];
  if (exportName !== undefined && !(exportName in loaded)) {
    return {
      ok: false,
      error: `--runtime ${spec}: the module has no export "${exportName}" (it exports ${Object.keys(loaded).join(", ") || "nothing"}).`,
    };
  }
  const ordered = [
    ...PREFERRED_EXPORTS.filter((name) => names.includes(name)),
    ...names.filter((name) => !PREFERRED_EXPORTS.includes(name)),
  ];
  for (const name of ordered) {
    const runtime = await runtimeFrom(loaded[name]);
    if (runtime !== undefined) return { ok: true, runtime };
  }
  return {
    ok: false,
    error:
      `--runtime ${spec}: no export is a codemode runtime (createCodemodeRuntime(...)) or a function without parameters returning one. ` +
      `Exports: ${Object.keys(loaded).join(", ") || "none"}. Name one with --runtime ${path}#exportName.`,
  };
}
