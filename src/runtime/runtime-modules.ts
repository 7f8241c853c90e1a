/**
 * The runtime's `modules` option: ES module source by specifier (with an optional TypeScript declaration), validated
 * and bounded once, with a content hash of each. An execution records the modules its passes imported (specifier →
 * hash, a version-tagged JSON on the execution); a resumed pass whose recorded module is gone or changed is a
 * divergence naming it, never a silent different result.
 */
import { createHash } from "node:crypto";
import { InvalidOptionError } from "../errors.js";
import { isRecord } from "../shared/is-record.js";
import type { FatalFailure } from "./pass/pass-signals.js";

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

/** The resolved option: sources for the sandbox, declarations for describe, hashes for replay. */
export interface ResolvedModules {
  /** Specifier → source (null prototype, frozen); empty when none. */
  sources: Readonly<Record<string, string>>;
  /** Specifier → TypeScript declaration, where given. */
  types: ReadonlyMap<string, string>;
  /** Specifier → SHA-256 of the source (hex). */
  hashes: ReadonlyMap<string, string>;
}

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
    hashes.set(specifier, createHash("sha256").update(source).digest("hex"));
  }
  return { sources: Object.freeze(sources), types, hashes };
}

const RECORD_VERSION = 1;

/** The modules an execution imported, as stored: `{ v: 1, modules: { specifier: hash } }`. */
function encodeModuleRecord(used: ReadonlyMap<string, string>): string {
  return JSON.stringify({ v: RECORD_VERSION, modules: Object.fromEntries(used) });
}

/** Reads a stored module record; throws on anything but the version this package writes. */
function decodeModuleRecord(text: string): Map<string, string> {
  const parsed: unknown = JSON.parse(text);
  if (!isRecord(parsed) || parsed.v !== RECORD_VERSION || !isRecord(parsed.modules)) {
    throw new Error("the execution's module record is not one this version reads");
  }
  const used = new Map<string, string>();
  for (const [specifier, hash] of Object.entries(parsed.modules)) {
    if (typeof hash !== "string") throw new Error(`the execution's module record has no hash for ${specifier}`);
    used.set(specifier, hash);
  }
  return used;
}

/**
 * The record after a pass: what earlier passes imported plus what this one did (each at its hash now). Undefined when
 * nothing changes, so a pass that imports nothing new writes nothing.
 */
export function nextModuleRecord(
  recordedText: string | undefined,
  imported: readonly string[] | undefined,
  modules: ResolvedModules,
): string | undefined {
  if (imported === undefined || imported.length === 0) return undefined;
  const used = recordedText === undefined ? new Map<string, string>() : decodeModuleRecord(recordedText);
  let changed = false;
  for (const specifier of imported) {
    const hash = modules.hashes.get(specifier);
    if (hash === undefined || used.get(specifier) === hash) continue;
    used.set(specifier, hash);
    changed = true;
  }
  return changed ? encodeModuleRecord(used) : undefined;
}

/** A divergence when a module an earlier pass imported is gone or has different source now; undefined when all match. */
export function moduleDivergence(recordedText: string | undefined, modules: ResolvedModules): FatalFailure | undefined {
  if (recordedText === undefined) return undefined;
  let used: Map<string, string>;
  try {
    used = decodeModuleRecord(recordedText);
  } catch (error) {
    return { kind: "store", error: `The execution cannot be resumed: ${(error as Error).message}.` };
  }
  for (const [specifier, hash] of used) {
    const now = modules.hashes.get(specifier);
    if (now === hash) continue;
    const what =
      now === undefined
        ? `the module "${specifier}" it imported is no longer among this runtime's modules`
        : `the module "${specifier}" it imported has changed since (its source is different)`;
    return {
      kind: "divergence",
      error:
        `Replay diverged before the program ran: ${what}. A resumed run must see the same modules, or its replayed ` +
        "calls could mean something else. Nothing was run; start a new execution to use the current modules.",
    };
  }
  return undefined;
}
