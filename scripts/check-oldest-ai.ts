/**
 * The package on the oldest `ai` its peer range claims: packs the built package (`npm pack`), installs the tarball
 * with that `ai` (the range's floor) into a throwaway project in the OS temp folder, type-checks a consumer
 * (scripts/oldest-ai/consumer.ts) with `--strict` and `skipLibCheck: false`, so the published `.d.ts` compile against
 * that `ai`, and runs it. `.ci/run` runs it after the build; the newest `ai` is what the lock file installs.
 *
 * Usage: `npm run build && tsx scripts/check-oldest-ai.ts` (`--keep` leaves the project for a look).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

interface Manifest {
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

/** The lowest version a `^x.y.z` (or `~`, `>=`) range admits. */
export function rangeFloor(range: string): string {
  const floor = /^(?:\^|~|>=)?\s*(\d+\.\d+\.\d+)$/.exec(range.trim())?.[1];
  if (floor === undefined) throw new Error(`Cannot read the lowest version of the range ${JSON.stringify(range)}`);
  return floor;
}

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}

function main(): void {
  const started = performance.now();
  if (!existsSync(join(ROOT, "dist", "index.d.ts"))) throw new Error("dist/ is missing: run `npm run build` first.");
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Manifest;
  const ai = rangeFloor(manifest.peerDependencies["ai"] ?? "");
  const folder = mkdtempSync(join(tmpdir(), "codemode-oldest-ai-"));
  try {
    const tarball = run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", folder], ROOT).trim();
    const project = join(folder, "consumer");
    execFileSync("mkdir", [project]);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "oldest-ai", private: true, type: "module" }));
    const compilerOptions = {
      strict: true,
      skipLibCheck: false,
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      lib: ["ES2023", "DOM"],
      types: ["node"],
      noEmit: true,
    };
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["*.ts"] }));
    copyFileSync(join(ROOT, "scripts", "oldest-ai", "consumer.ts"), join(project, "consumer.ts"));
    const dev = manifest.devDependencies;
    const packages = [
      join(folder, tarball),
      `ai@${ai}`,
      `zod@${dev["zod"]}`,
      `typescript@${dev["typescript"]}`,
      `@types/node@${dev["@types/node"]}`,
    ];
    run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...packages], project);
    run(process.execPath, [join(project, "node_modules", "typescript", "bin", "tsc"), "-p", project], project);
    process.stdout.write(run(process.execPath, ["consumer.ts"], project));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`ai-codemode on ai ${ai} (the floor of the peer range): compiles strict without skipLibCheck, runs (${seconds} s).`);
  } finally {
    if (process.argv.includes("--keep")) console.log(`kept: ${folder}`);
    else rmSync(folder, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
