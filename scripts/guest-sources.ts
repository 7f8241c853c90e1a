/**
 * Bundles the modules in `src/sandbox/guest/` (the JavaScript evaluated inside QuickJS) to text: each becomes one
 * expression whose value is the module's factory, `(function(){"use strict";…;return factory})()`, with its imports
 * bundled in and minified (QuickJS compiles ~0.1 ms per KiB). The texts live in
 * `src/sandbox/guest/guest-sources.ts`, which every run imports:
 * - `npm run build:guest` writes that file (after editing a guest module);
 * - the build (`tsup.config.ts`) bundles the texts afresh instead of reading it;
 * - `test/sandbox/guest/guest-sources.test.ts` fails when the file is not what this script writes, so the tests and
 *   `tsx` runs see exactly the text of the build.
 *
 * Run: `node --import tsx scripts/guest-sources.ts`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parse, type Node } from "acorn";
import { build, type Plugin } from "esbuild";

/**
 * The guest modules: name in `GUEST_SOURCES` → file under `src/sandbox/guest/`, the factory it exports, and whether
 * its names may be minified. They may not where the program sees a function's own name (`Date.name`, `fetch.name`,
 * `Math.random.name`): those modules lose only whitespace and comments.
 */
export const GUEST_MODULES = {
  plain: { file: "plain-json.js", factory: "createPlainJson", minifyNames: true },
  codec: { file: "sandbox-codec.js", factory: "createSandboxCodec", minifyNames: true },
  render: { file: "render.js", factory: "createRender", minifyNames: true },
  environment: { file: "environment.js", factory: "installEnvironment", minifyNames: false },
  codemodeGlobal: { file: "codemode-global.js", factory: "createCodemodeGlobal", minifyNames: false },
  fetchGlobal: { file: "fetch-global.js", factory: "createFetchGlobal", minifyNames: false },
} as const;

/** A guest module's name. */
export type GuestModuleName = keyof typeof GUEST_MODULES;

const GUEST_FOLDER = new URL("../src/sandbox/guest/", import.meta.url);
/** The generated module. */
export const GUEST_SOURCES_FILE = fileURLToPath(new URL("../src/sandbox/guest/guest-sources.ts", import.meta.url));

/** Names esbuild gives its runtime helpers (`__defProp`, `__export`, …): the text must need none. */
const HELPER = /^__/;

const ROOT = new URL("../", import.meta.url);

function fail(file: string, message: string, folder: URL = GUEST_FOLDER): never {
  throw new Error(`${folder.href.slice(ROOT.href.length)}${file}: ${message}`);
}

/** The top-level names a statement declares. */
function declaredNames(node: Node): string[] {
  const statement = node as Node & {
    id?: { name?: string } | null;
    declarations?: Array<{ id: { type: string; name?: string } }>;
  };
  if (statement.declarations !== undefined) {
    return statement.declarations.map((declaration) => declaration.id.name ?? "").filter((name) => name !== "");
  }
  return statement.id?.name === undefined ? [] : [statement.id.name];
}

/**
 * One guest module (or, given `folder`, another checked browser module such as the inspector page's) as the text of
 * an expression whose value is its factory.
 */
export async function bundleGuestModule(
  file: string,
  factory: string,
  minifyNames: boolean,
  folder: URL = GUEST_FOLDER,
): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(file, folder))],
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    minifyWhitespace: true,
    minifyIdentifiers: minifyNames,
    minifySyntax: minifyNames,
    legalComments: "none",
    logLevel: "silent",
  });
  const code = result.outputFiles[0]?.text ?? fail(file, "esbuild produced no output", folder);
  const program = parse(code, { ecmaVersion: "latest", sourceType: "module" });
  const last = program.body[program.body.length - 1] as
    | (Node & { type: string; declaration?: unknown; specifiers?: Array<{ local: Node; exported: Node }> })
    | undefined;
  const specifier = last?.type === "ExportNamedDeclaration" && !last.declaration ? last.specifiers : undefined;
  const exported = specifier?.length === 1 ? specifier[0] : undefined;
  if (last === undefined || exported === undefined || (exported.exported as { name?: string }).name !== factory) {
    fail(file, `must export exactly one name, ${factory}`, folder);
  }
  for (const node of program.body.slice(0, -1)) {
    if (node.type === "ImportDeclaration" || node.type.startsWith("Export")) fail(file, "left an import or export", folder);
    const helper = declaredNames(node).find((name) => HELPER.test(name));
    if (helper !== undefined) fail(file, `needs the bundler helper ${helper}`, folder);
  }
  const local = (exported.local as unknown as { name: string }).name;
  return `(function(){"use strict";${code.slice(0, last.start).trim()}return ${local}})()`;
}

/** Every guest module as text. */
export async function bundleGuestSources(): Promise<Record<GuestModuleName, string>> {
  const names = Object.keys(GUEST_MODULES) as GuestModuleName[];
  const texts = await Promise.all(
    names.map((name) => {
      const { file, factory, minifyNames } = GUEST_MODULES[name];
      return bundleGuestModule(file, factory, minifyNames);
    }),
  );
  return Object.fromEntries(names.map((name, index) => [name, texts[index]])) as Record<GuestModuleName, string>;
}

/** The source of `src/sandbox/guest/guest-sources.ts` for these texts. */
export function guestSourcesModule(sources: Record<GuestModuleName, string>): string {
  const names = Object.keys(sources) as GuestModuleName[];
  return [
    "/**",
    " * Generated by `scripts/guest-sources.ts` (`npm run build:guest`) from the modules in `src/sandbox/guest/`; do not",
    " * edit. Each text is an expression whose value is that module's factory, compiled inside QuickJS on first use.",
    " * `test/sandbox/guest/guest-sources.test.ts` fails when this file is stale; the build bundles the texts afresh.",
    " */",
    "",
    "/** A guest module's name. */",
    `export type GuestModuleName = ${names.map((name) => JSON.stringify(name)).join(" | ")};`,
    "",
    "/** The guest modules as text, by name. */",
    "export const GUEST_SOURCES: Readonly<Record<GuestModuleName, string>> = {",
    ...names.map((name) => `  ${name}: ${JSON.stringify(sources[name])},`),
    "};",
    "",
  ].join("\n");
}

/** Writes `src/sandbox/guest/guest-sources.ts` when it differs; returns whether it did. */
export async function writeGuestSources(): Promise<boolean> {
  const text = guestSourcesModule(await bundleGuestSources());
  let current: string | undefined;
  try {
    current = readFileSync(GUEST_SOURCES_FILE, "utf8");
  } catch {
    current = undefined;
  }
  if (current === text) return false;
  writeFileSync(GUEST_SOURCES_FILE, text);
  return true;
}

/**
 * An esbuild plugin (the build's): `src/sandbox/guest/guest-sources.ts` is loaded as the texts bundled now. `bundle` is
 * a test seam.
 */
export function guestSourcesPlugin({ bundle = bundleGuestSources }: { bundle?: typeof bundleGuestSources } = {}): Plugin {
  return {
    name: "guest-sources",
    setup(esbuild) {
      esbuild.onLoad({ filter: /[\\/]src[\\/]sandbox[\\/]guest[\\/]guest-sources\.ts$/ }, async () => ({
        contents: guestSourcesModule(await bundle()),
        loader: "ts",
      }));
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const wrote = await writeGuestSources();
  process.stdout.write(wrote ? `wrote ${GUEST_SOURCES_FILE}\n` : "src/sandbox/guest/guest-sources.ts is up to date\n");
}
