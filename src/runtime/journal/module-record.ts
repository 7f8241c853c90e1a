/**
 * What an execution keeps of the sandbox modules its passes imported (the `modules` column): specifier → SHA-256 of
 * the source, as version-tagged JSON validated when read. A resumed pass whose recorded module is gone or changed is
 * a divergence naming it, decided before the program runs: never a silently different result.
 */
import { isRecord } from "../../shared/is-record.js";

/** The resolved option: sources for the sandbox, declarations for describe, hashes for replay. */
export interface ResolvedModules {
  /** Specifier → source (null prototype, frozen); empty when none. */
  sources: Readonly<Record<string, string>>;
  /** Specifier → TypeScript declaration, where given. */
  types: ReadonlyMap<string, string>;
  /** Specifier → SHA-256 of the source (hex). */
  hashes: ReadonlyMap<string, string>;
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
export function moduleDivergence(
  recordedText: string | undefined,
  modules: ResolvedModules,
): { kind: "divergence" | "store"; error: string } | undefined {
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
