/**
 * The runtime's `modules` option: ES module source by specifier (with an optional TypeScript declaration), validated
 * and bounded once, with a content hash of each (what `journal/module-record.ts` records, and pins on resume).
 */
import { InvalidOptionError } from "../errors.js";
import { isRecord } from "../shared/is-record.js";
import { moduleDigest, type ResolvedModules } from "./journal/module-record.js";

export type { ResolvedModules } from "./journal/module-record.js";

/** The `modules` option: specifier → ES module source, or `{ source, types }` with a TypeScript declaration. */
export type ModulesOption = Record<string, string | { source: string; types?: string }>;

/** Modules one runtime may register: each is shown by name in the tool description, so the list stays short. */
export const MAX_MODULES = 50;
/** Characters of one module's source: a bundle of a few libraries is well under this; QuickJS parses it per import. */
export const MAX_MODULE_SOURCE_CHARS = 2_000_000;
/** Characters of all modules' sources together (each run that imports sends them to the sandbox). */
export const MAX_TOTAL_MODULE_SOURCE_CHARS = 8_000_000;
/** Characters of one module's TypeScript declaration (what `describe` returns to the model). */
const MAX_MODULE_TYPES_CHARS = 200_000;
/** npm's own bound on a package name. */
const MAX_SPECIFIER_CHARS = 214;
/** A bare package-like name: no relative path, URL, scheme or Node built-in prefix. */
const SPECIFIER = /^(?:@[a-z0-9][\w.-]*\/)?[A-Za-z0-9][\w.-]*(?:\/[\w.-]+)*$/;

function fail(path: string, message: string): never {
  throw new InvalidOptionError({ path, message });
}

/** Validates `modules` and hashes each source. @throws InvalidOptionError naming the module and the bound passed. */
export function resolveModules(option: unknown): ResolvedModules {
  const sources = Object.create(null) as Record<string, string>;
  const types = new Map<string, string>();
  const hashes = new Map<string, string>();
  if (option === undefined) return { sources: Object.freeze(sources), types, hashes };
  if (!isRecord(option)) fail("modules", "must be an object of specifier → module source (or { source, types })");
  const entries = Object.entries(option);
  if (entries.length > MAX_MODULES)
    fail("modules", `has ${entries.length} modules; at most ${MAX_MODULES} are allowed`);
  let total = 0;
  for (const [specifier, value] of entries) {
    const path = `modules[${JSON.stringify(specifier.slice(0, 100))}]`;
    if (specifier.length > MAX_SPECIFIER_CHARS || !SPECIFIER.test(specifier)) {
      fail(path, "is not a bare module name (like lodash-es or @scope/name): no relative path, URL or node: prefix");
    }
    const source = typeof value === "string" ? value : isRecord(value) ? value.source : undefined;
    if (typeof source !== "string") fail(path, "must be ES module source text, or { source: string; types?: string }");
    if (source.length > MAX_MODULE_SOURCE_CHARS) {
      fail(
        path,
        `is ${source.length.toLocaleString("en-US")} characters; the limit is ${MAX_MODULE_SOURCE_CHARS.toLocaleString("en-US")} (bundle less of the package, or minify it)`,
      );
    }
    total += source.length;
    if (total > MAX_TOTAL_MODULE_SOURCE_CHARS) {
      fail(
        "modules",
        `hold more than ${MAX_TOTAL_MODULE_SOURCE_CHARS.toLocaleString("en-US")} characters of source together; register fewer or smaller bundles`,
      );
    }
    if (isRecord(value) && value.types !== undefined) {
      if (typeof value.types !== "string") fail(`${path}.types`, "must be a string of TypeScript declarations");
      if (value.types.length > MAX_MODULE_TYPES_CHARS) {
        fail(
          `${path}.types`,
          `is ${value.types.length.toLocaleString("en-US")} characters; the limit is ${MAX_MODULE_TYPES_CHARS.toLocaleString("en-US")}`,
        );
      }
      types.set(specifier, value.types);
    }
    sources[specifier] = source;
    hashes.set(specifier, moduleDigest(source));
  }
  return { sources: Object.freeze(sources), types, hashes };
}
