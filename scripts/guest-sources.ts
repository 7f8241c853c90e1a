/**
 * Bundles the modules in `src/sandbox/guest/` (the JavaScript evaluated inside QuickJS) to text: each becomes one
 * expression whose value is the module's factory, `(function(){"use strict";…;return factory})()`, with its imports
 * bundled in and minified (QuickJS compiles ~0.1 ms per KiB). The texts are the module `src/sandbox/guest-sources.js`
 * (declared by the committed `guest-sources.d.ts`), which is generated, never committed
 * (`scripts/generated-sources.ts`: the build bundles it afresh, every vitest run and `npm run generate` write it).
 */
import { fileURLToPath } from "node:url";
import { parse, type Node } from "acorn";
import { build } from "esbuild";

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

/** The source of the generated `src/sandbox/guest-sources.js` for these texts. */
export function guestSourcesModule(sources: Record<GuestModuleName, string>): string {
  const names = Object.keys(sources) as GuestModuleName[];
  return [
    "// Generated by `scripts/guest-sources.ts` from `src/sandbox/guest/` (`npm run generate`, every vitest run; the",
    "// build bundles it afresh); not in git, do not edit. Declared by `guest-sources.d.ts`.",
    "export const GUEST_SOURCES = {",
    ...names.map((name) => `  ${name}: ${JSON.stringify(sources[name])},`),
    "};",
    "",
  ].join("\n");
}
