/**
 * The chat components ship in the package as shadcn/ui registry items (`registry/r/*.json`, built from
 * `registry/codemode/*.tsx` by `shadcn build`). From the packed package: every item is self-contained (each file's
 * content inline, every import it makes is a file of the same item, a declared primitive, `@/lib/utils` or a declared
 * dependency), the packed items are what `shadcn build` makes of the sources, and `shadcn add <item.json>` from the
 * tarball into a copy of examples/nextjs (a Next.js app with Tailwind v4 and the primitives as local files) installs
 * exactly the files the example commits (the example's own check, `scripts/add-codemode-components.mjs --check`).
 * `next build` of the example and the card in Chromium are its e2e (`npm run e2e` in examples/nextjs).
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempFolder } from "../support/temp-folder.js";

const root = resolve(import.meta.dirname, "../..");
const example = join(root, "examples/nextjs");
const shadcn = join(root, "node_modules/.bin/shadcn");
const ITEMS = ["codemode-run", "codemode-approval", "codemode-calls", "codemode-program"];

interface RegistryItem {
  name: string;
  type: string;
  dependencies?: string[];
  registryDependencies?: string[];
  files: { path: string; type: string; content?: string }[];
}

/** Runs a command; resolves with its output, rejects with it when it fails. */
function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env } });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("error", fail);
    child.on("close", (code) =>
      code === 0 ? done(output) : fail(new Error(`${command} ${args.join(" ")} exited ${code}:\n${output}`)),
    );
  });
}

/** The packed package, extracted: `<folder>/package`. */
function packAndExtract(folder: string): string {
  // dist/ was built by the global setup; --ignore-scripts keeps prepack from rebuilding it under the other tests.
  const tarball = execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", folder], {
    cwd: root,
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .at(-1)!;
  execFileSync("tar", ["-xzf", join(folder, tarball), "-C", folder]);
  return join(folder, "package");
}

/** The module specifiers a file imports. */
function importsOf(source: string): string[] {
  return [...source.matchAll(/^import[^"']*["']([^"']+)["'];?$/gm)].map((match) => match[1]!);
}

describe("the registry items in the packed package", () => {
  const work = mkdtempSync(join(tmpdir(), "codemode-registry-pack-"));
  let packed: string;
  beforeAll(() => {
    packed = packAndExtract(work);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("are self-contained: contents inline, imports only of the item's files, declared primitives and dependencies", () => {
    const primitives = readdirSync(join(example, "components/ui")).map((file) => file.replace(/\.tsx$/, ""));
    for (const name of ITEMS) {
      const item = JSON.parse(readFileSync(join(packed, "registry/r", `${name}.json`), "utf8")) as RegistryItem;
      expect(item.name).toBe(name);
      expect(item.type).toBe("registry:component");
      // The primitives an item needs exist in shadcn's registry and, offline, as local files of the example.
      for (const dependency of item.registryDependencies ?? []) expect(primitives).toContain(dependency);
      const own = new Set(
        item.files.map(
          (file) =>
            `./${file.path
              .split("/")
              .at(-1)!
              .replace(/\.tsx$/, "")}`,
        ),
      );
      for (const file of item.files) {
        // The content is the source shipped beside it.
        expect(file.content).toBe(readFileSync(join(packed, "registry", file.path), "utf8"));
        for (const specifier of importsOf(file.content!)) {
          if (specifier.startsWith("./")) expect(own, `${file.path} imports ${specifier}`).toContain(specifier);
          else if (specifier.startsWith("@/components/ui/"))
            expect(item.registryDependencies).toContain(specifier.slice("@/components/ui/".length));
          else if (specifier !== "@/lib/utils" && specifier !== "react") {
            const packageName = specifier.split("/")[0]!;
            expect(item.dependencies, `${file.path} imports ${specifier}`).toContain(packageName);
          }
        }
      }
    }
    // The whole run holds every other item's files.
    const run = JSON.parse(readFileSync(join(packed, "registry/r/codemode-run.json"), "utf8")) as RegistryItem;
    const runFiles = run.files.map((file) => file.path);
    for (const name of ITEMS) {
      const item = JSON.parse(readFileSync(join(packed, "registry/r", `${name}.json`), "utf8")) as RegistryItem;
      for (const file of item.files) expect(runFiles).toContain(file.path);
    }
  });

  it("are what shadcn build makes of the sources (built items never drift from them)", async () => {
    const out = tempFolder("codemode-registry-build-");
    await run(shadcn, ["build", "registry.json", "--output", out], { cwd: join(packed, "registry") });
    for (const name of ITEMS) {
      expect(JSON.parse(readFileSync(join(out, `${name}.json`), "utf8"))).toEqual(
        JSON.parse(readFileSync(join(packed, "registry/r", `${name}.json`), "utf8")),
      );
    }
  }, 60_000);

  it("install with shadcn add into a copy of the Next.js example, exactly as the example commits them", async () => {
    const output = await run(
      process.execPath,
      [join(example, "scripts/add-codemode-components.mjs"), "--check", "--from", join(packed, "registry/r")],
      { cwd: example, env: { SHADCN_BIN: shadcn } },
    );
    expect(output).toMatch(/^6 files match the registry items in /m);
    for (const file of ["codemode-run", "codemode-program", "codemode-calls", "codemode-approval"])
      expect(existsSync(join(example, "components", `${file}.tsx`))).toBe(true);
  }, 120_000);
});
