/**
 * Counts the public names of every package entry with the TypeScript checker on the built `dist/*.d.ts` (what
 * a user's editor sees), prints a table, and writes `docs/api-surface.md`, so growth of the surface is a
 * visible diff and its limits are checked in `npm test`.
 *
 * Usage: `npm run api:report` (builds first), or `tsx scripts/api-report.ts` on an existing `dist/`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** What a public name is, as a user would call it. */
export type ApiKind = "class" | "function" | "constant" | "type";

export interface ApiName {
  name: string;
  kind: ApiKind;
}

/** One subpath of the package's `exports` map and the names its types declare. */
export interface ApiEntry {
  /** The specifier a user imports, e.g. `ai-codemode/ui`. */
  specifier: string;
  names: ApiName[];
}

/** The limits the surface is held to; names other than these may appear in two entries. */
export const API_LIMITS = {
  rootNames: 45,
  totalNames: 131,
  constants: 3,
  // Besides the error classes, which every entry that throws them re-exports.
  sharedNames: new Set(["QuickJSExecutor"]),
} as const;

const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const API_SURFACE_FILE = join(PACKAGE_ROOT, "docs", "api-surface.md");

interface PackageJson {
  name: string;
  exports: Record<string, string | { types?: string }>;
}

/** The entries of the `exports` map that carry types, each with its `.d.ts` file. */
function entryFiles(root: string): Array<{ specifier: string; file: string }> {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageJson;
  const entries: Array<{ specifier: string; file: string }> = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target === "string" || target.types === undefined) continue;
    const specifier = subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
    entries.push({ specifier, file: join(root, target.types) });
  }
  return entries;
}

function kindOf(checker: ts.TypeChecker, exported: ts.Symbol): ApiKind {
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  if (symbol.flags & ts.SymbolFlags.Class) return "class";
  if (symbol.flags & ts.SymbolFlags.Function) return "function";
  if (symbol.flags & ts.SymbolFlags.Variable) {
    // A `const x: (…) => …` is called like a function; anything else declared as a value is a constant.
    const type = checker.getTypeOfSymbol(symbol);
    return type.getCallSignatures().length > 0 ? "function" : "constant";
  }
  return "type";
}

/** The public names of every entry, read from the built declarations. */
export function readApiSurface(root = PACKAGE_ROOT): ApiEntry[] {
  const entries = entryFiles(root);
  const program = ts.createProgram(
    entries.map((entry) => entry.file),
    { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true },
  );
  const checker = program.getTypeChecker();
  return entries.map(({ specifier, file }) => {
    const source = program.getSourceFile(file);
    const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) throw new Error(`${file} is missing or not a module; run \`npm run build\``);
    const names = checker
      .getExportsOfModule(moduleSymbol)
      .map((symbol) => ({ name: symbol.getName(), kind: kindOf(checker, symbol) }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { specifier, names };
  });
}

/** Choices a reader of the list would wonder about (the decision record has the reasons). */
const API_NOTES = [
  "- `runtime.deleteAllData()` deletes every row of the runtime's name (executions, calls, snippets); `close()`",
  "  releases the runtime and keeps the data. The runtime and `QuickJSExecutor` implement `Symbol.asyncDispose`",
  "  (`await using`): the runtime closes, the executor is disposed.",
  "- `CodemodeArgumentError`: a bad argument to a method of ours (`ai` exports a class `InvalidArgumentError`).",
  "- `CallState`: the one set of a call's states (progress, timeline, CLI, inspector); `CallRecord.status` is part of it.",
  "- An error class is exported by the entry of its feature: the OpenAPI errors by `ai-codemode/openapi`;",
  "  `McpToolError`, `RedirectError` and `OutboundFetchError` by the root, whose connectors throw them.",
];

/** Each way the surface exceeds its limits, written for the person who grew it. */
export function apiLimitProblems(entries: readonly ApiEntry[], limits = API_LIMITS): string[] {
  const problems: string[] = [];
  const [root] = entries;
  if (root !== undefined && root.names.length > limits.rootNames) {
    problems.push(`${root.specifier} exports ${root.names.length} names (at most ${limits.rootNames})`);
  }
  const total = entries.reduce((sum, entry) => sum + entry.names.length, 0);
  if (total > limits.totalNames) problems.push(`the entries export ${total} names (at most ${limits.totalNames})`);
  const constants = entries.flatMap((entry) => entry.names.filter((name) => name.kind === "constant"));
  if (constants.length > limits.constants) {
    const list = constants.map((name) => name.name).join(", ");
    problems.push(`${constants.length} public constants (at most ${limits.constants}): ${list}`);
  }
  const seen = new Map<string, string>();
  for (const entry of entries) {
    for (const { name, kind } of entry.names) {
      const first = seen.get(name);
      if (first === undefined) seen.set(name, entry.specifier);
      else if (!limits.sharedNames.has(name) && !(kind === "class" && name.endsWith("Error"))) {
        problems.push(`${name} is exported by both ${first} and ${entry.specifier}`);
      }
    }
  }
  return problems;
}

/** The Markdown of `docs/api-surface.md`: a count per entry, then each entry's sorted names. */
export function renderApiSurface(entries: readonly ApiEntry[]): string {
  const total = entries.reduce((sum, entry) => sum + entry.names.length, 0);
  const lines = [
    "# Public API surface",
    "",
    "Generated by `npm run api:report` from the built `dist/*.d.ts`; a test fails when this file is stale.",
    "Why each name is public: [decisions/v1-surface.md](decisions/v1-surface.md).",
    "",
    "| Entry | Names |",
    "| --- | ---: |",
    ...entries.map((entry) => `| \`${entry.specifier}\` | ${entry.names.length} |`),
    `| **Total** | **${total}** |`,
  ];
  for (const entry of entries) {
    lines.push("", `## \`${entry.specifier}\``, "", "| Name | Kind |", "| --- | --- |");
    for (const { name, kind } of entry.names) lines.push(`| \`${name}\` | ${kind} |`);
  }
  lines.push("", "## Notes", "", ...API_NOTES);
  return `${lines.join("\n")}\n`;
}

function main(): void {
  const entries = readApiSurface();
  for (const entry of entries) console.log(`${entry.specifier.padEnd(24)} ${String(entry.names.length).padStart(4)}`);
  console.log(`${"total".padEnd(24)} ${String(entries.reduce((sum, e) => sum + e.names.length, 0)).padStart(4)}`);
  writeFileSync(API_SURFACE_FILE, renderApiSurface(entries));
  const problems = apiLimitProblems(entries);
  for (const problem of problems) console.error(`api:report: ${problem}`);
  if (problems.length > 0) process.exitCode = 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
