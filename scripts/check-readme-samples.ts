/**
 * Type-checks every TypeScript sample of README.md and docs/*.md as a consumer would compile it:
 * each block becomes a module of a throwaway project in the OS temp folder that imports the
 * *built* package (`dist/`, through its `exports` map) next to `ai`, compiled with `--strict`.
 * The free names a sample assumes (`model`, `prompt`, `runtime`, …) come from
 * `scripts/readme-sample-prelude.d.ts`, the Next.js example's `@/` modules from
 * `scripts/readme-sample-app-modules.d.ts`. A block fenced as ```` ```ts runnable ```` must stand on
 * its own and is also run (with tsx, in that project), and must exit 0. Errors are reported at
 * their Markdown file and line.
 *
 * Usage: `npm run check:readme` (builds first), or `tsx scripts/check-readme-samples.ts [file.md …]`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** One fenced TypeScript block of a Markdown file. */
export interface MarkdownSample {
  /** The Markdown file, as given to `extractTypeScriptSamples` (used in reports only). */
  file?: string;
  /** 1-based line of the first code line (the line after the opening fence). */
  line: number;
  code: string;
  /** Fenced as ```` ```ts runnable ````: the block is run too, not only compiled. */
  runnable: boolean;
  /** Fenced as ```` ```tsx ````: compiled as a `.tsx` file (React's JSX). */
  jsx?: boolean;
}

/** A compiler error mapped back to the Markdown file. */
export interface SampleDiagnostic {
  file?: string;
  /** 1-based line in the Markdown file. */
  line: number;
  message: string;
}

/** What a runnable sample did when run. */
export interface SampleRun {
  file?: string;
  line: number;
  /** Exit code; `null` when it was killed (e.g. past the timeout). */
  status: number | null;
  stdout: string;
  stderr: string;
}

const FENCE = /^(\s*)```(ts|typescript|tsx)(\s+runnable)?\s*$/;
/** A runnable sample is a short demonstration; one that takes longer is stuck. */
const RUN_TIMEOUT_MS = 60_000;
const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PRELUDE = join(PACKAGE_ROOT, "scripts", "readme-sample-prelude.d.ts");
const APP_MODULES = join(PACKAGE_ROOT, "scripts", "readme-sample-app-modules.d.ts");
const APP_COMPONENTS = join(PACKAGE_ROOT, "scripts", "readme-sample-app-components.d.ts");

/** Every ```ts / ```typescript / ```tsx block, indented ones (inside lists) included. */
export function extractTypeScriptSamples(markdown: string, file?: string): MarkdownSample[] {
  const lines = markdown.split("\n");
  const samples: MarkdownSample[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index]!);
    if (open === null) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && lines[end]!.trim() !== "```") body.push(lines[end++]!.slice(indent));
    const sample: MarkdownSample = { line: index + 2, code: `${body.join("\n")}\n`, runnable: open[3] !== undefined };
    if (open[2] === "tsx") sample.jsx = true;
    samples.push(file === undefined ? sample : { file, ...sample });
    index = end;
  }
  return samples;
}

function importedPackages(samples: MarkdownSample[]): Set<string> {
  const names = new Set<string>(["ai", "@types/node"]);
  for (const { code } of samples) {
    for (const match of code.matchAll(/\bfrom\s+["']([^"'./][^"']*)["']/g)) {
      const specifier = match[1]!;
      if (specifier.startsWith("node:")) continue;
      const parts = specifier.split("/");
      names.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!);
    }
  }
  // JSX compiles against React's types (`react/jsx-runtime`).
  if (samples.some((sample) => sample.jsx)) names.add("react").add("@types/react");
  names.delete("ai-codemode");
  return names;
}

/** A consumer project: `ai-codemode` links to this package, other imports to its node_modules. */
function writeProject(folder: string, samples: MarkdownSample[], packageRoot: string): string[] {
  const modules = join(folder, "node_modules");
  mkdirSync(join(modules, "@types"), { recursive: true });
  symlinkSync(packageRoot, join(modules, "ai-codemode"), "dir");
  for (const name of importedPackages(samples)) {
    const target = join(packageRoot, "node_modules", name);
    if (!existsSync(target)) continue; // reported by the compiler as "Cannot find module"
    if (name.includes("/")) mkdirSync(join(modules, name.split("/")[0]!), { recursive: true });
    symlinkSync(target, join(modules, name), "dir");
  }
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "readme-samples", private: true, type: "module" }));
  const compilerOptions = {
    strict: true,
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib: ["ES2023"],
    jsx: "react-jsx",
    types: ["node"],
    skipLibCheck: true,
    noEmit: true,
    // The Next.js example's `@/lib/…` imports, as its tsconfig maps them.
    // and the chat components `npx shadcn add` puts in `@/components/…`, as the registry items declare them.
    paths: { "@/lib/*": ["./app-modules.d.ts"], "@/components/*": ["./app-components.d.ts"] },
  };
  writeFileSync(join(folder, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["*.ts", "*.tsx"] }));
  // Copied as a .ts file so that skipLibCheck does not hide a clash in it (e.g. with a lib global).
  writeFileSync(join(folder, "prelude.ts"), readFileSync(PRELUDE, "utf8"));
  writeFileSync(join(folder, "app-modules.d.ts"), readFileSync(APP_MODULES, "utf8"));
  writeFileSync(join(folder, "app-components.d.ts"), readFileSync(APP_COMPONENTS, "utf8"));
  const files = samples.map((sample, index) => `sample-${String(index + 1).padStart(2, "0")}.${sample.jsx ? "tsx" : "ts"}`);
  // `export {}` makes a block without imports a module too, so its top-level names stay its own.
  samples.forEach((sample, index) => writeFileSync(join(folder, files[index]!), `${sample.code}export {};\n`));
  return files;
}

function parseDiagnostics(output: string, files: string[], samples: MarkdownSample[]): SampleDiagnostic[] {
  const diagnostics: SampleDiagnostic[] = [];
  for (const line of output.split("\n")) {
    const match = /^(.+?)\((\d+),(\d+)\): (error .*)$/.exec(line.trim());
    if (match === null) {
      if (line.trim() !== "" && diagnostics.length > 0) diagnostics.at(-1)!.message += `\n${line}`;
      else if (line.trim() !== "") diagnostics.push({ line: 0, message: line.trim() });
      continue;
    }
    const sample = samples[files.indexOf(match[1]!)];
    const at = sample === undefined ? 0 : sample.line + Number(match[2]) - 1;
    const message = `${sample === undefined ? `${match[1]}: ` : ""}${match[4]}`;
    diagnostics.push(sample?.file === undefined ? { line: at, message } : { file: sample.file, line: at, message });
  }
  return diagnostics;
}

function requireBuild(packageRoot: string): void {
  if (!existsSync(join(packageRoot, "dist", "index.d.ts"))) {
    throw new Error(`${packageRoot}/dist/index.d.ts is missing: run \`npm run build\` before checking the Markdown samples.`);
  }
}

/**
 * Compiles the samples against the built package at `packageRoot` (run `npm run build` first).
 * Resolves with the errors, none when every sample compiles. The temp project is removed.
 */
export function checkSamples({ samples, packageRoot = PACKAGE_ROOT }: { samples: MarkdownSample[]; packageRoot?: string }): SampleDiagnostic[] {
  requireBuild(packageRoot);
  const folder = mkdtempSync(join(tmpdir(), "codemode-readme-"));
  try {
    const files = writeProject(folder, samples, packageRoot);
    const tsc = join(packageRoot, "node_modules", "typescript", "bin", "tsc");
    try {
      execFileSync(process.execPath, [tsc, "-p", folder, "--pretty", "false"], { cwd: folder, encoding: "utf8", stdio: "pipe" });
      return [];
    } catch (error) {
      const output = (error as { stdout?: string }).stdout ?? String(error);
      return parseDiagnostics(output, files, samples);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Runs each runnable sample with tsx against the built package, one process each, in a folder of
 * its own that is also its working directory and TMPDIR (so a default store lands there), with no
 * store URL from the environment. The temp project is removed.
 */
export function runSamples({ samples, packageRoot = PACKAGE_ROOT }: { samples: MarkdownSample[]; packageRoot?: string }): SampleRun[] {
  requireBuild(packageRoot);
  const runnable = samples.filter((sample) => sample.runnable);
  if (runnable.length === 0) return [];
  const folder = mkdtempSync(join(tmpdir(), "codemode-readme-run-"));
  try {
    const files = writeProject(folder, runnable, packageRoot);
    const tsx = join(packageRoot, "node_modules", "tsx", "dist", "cli.mjs");
    return runnable.map((sample, index) => {
      const cwd = join(folder, `run-${index + 1}`);
      mkdirSync(cwd);
      const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: cwd };
      for (const name of ["CODEMODE_DATABASE_URL", "TURSO_DATABASE_URL", "TURSO_AUTH_TOKEN"]) delete env[name];
      const result = spawnSync(process.execPath, [tsx, join(folder, files[index]!)], { cwd, env, encoding: "utf8", timeout: RUN_TIMEOUT_MS });
      const run: SampleRun = { line: sample.line, status: result.status, stdout: result.stdout, stderr: result.stderr };
      return sample.file === undefined ? run : { file: sample.file, ...run };
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** README.md and every page of docs/ (not the decision notes): the Markdown users read. */
export function documentationFiles(packageRoot = PACKAGE_ROOT): string[] {
  const pages = readdirSync(join(packageRoot, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => join("docs", name));
  return ["README.md", ...pages];
}

function main(): void {
  const started = performance.now();
  const files = process.argv.length > 2 ? process.argv.slice(2).map((file) => resolve(file)) : documentationFiles().map((file) => join(PACKAGE_ROOT, file));
  const samples = files.flatMap((file) => extractTypeScriptSamples(readFileSync(file, "utf8"), file));
  let failed = false;
  for (const { file, line, message } of checkSamples({ samples })) {
    console.error(`${file ?? ""}:${line}: ${message}`);
    failed = true;
  }
  const runs = runSamples({ samples });
  for (const run of runs.filter(({ status }) => status !== 0)) {
    console.error(`${run.file ?? ""}:${run.line}: runnable sample exited ${run.status}\n${run.stdout}${run.stderr}`);
    failed = true;
  }
  if (failed) process.exit(1);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${samples.length} TypeScript samples of ${files.length} Markdown files compile with --strict; ${runs.length} runnable ones ran (${seconds} s).`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
