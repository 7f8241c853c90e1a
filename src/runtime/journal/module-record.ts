/**
 * What an execution keeps of the sandbox modules its passes imported (the `modules` column): specifier → SHA-256 of
 * the source, as version-tagged JSON validated when read. The sources themselves are kept once per digest while a
 * paused execution may need them, so a resumed pass imports what the execution first imported even after a deploy
 * changed `modules`; a recorded module whose source is neither current nor kept is a divergence naming it, decided
 * before the program runs: never a silently different result.
 */
import { isRecord } from "../../shared/is-record.js";
import { nodeCrypto } from "../../shared/node-crypto.js";

/** The resolved option: sources for the sandbox, declarations for describe, hashes for replay. */
export interface ResolvedModules {
  /** Specifier → source (null prototype, frozen); empty when none. */
  sources: Readonly<Record<string, string>>;
  /** Specifier → TypeScript declaration, where given. */
  types: ReadonlyMap<string, string>;
  /** Specifier → SHA-256 of the source (hex). */
  hashes: ReadonlyMap<string, string>;
}

/** A module source as kept for executions that may resume: its SHA-256 (hex) and the text. */
export interface ModuleSource {
  digest: string;
  source: string;
}

/** The module record after a pass, and the sources it newly refers to. */
export interface NextModuleRecord {
  text: string;
  sources: ModuleSource[];
}

/** Why a pass cannot get the modules its execution imported. */
export interface ModuleFailure {
  kind: "divergence" | "store";
  error: string;
}

const RECORD_VERSION = 1;

/** SHA-256 (hex) of a module source: the digest an execution records and its kept source is stored under. */
export function moduleDigest(source: string): string {
  return nodeCrypto().createHash("sha256").update(source).digest("hex");
}

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
 * The record after a pass: what earlier passes imported plus what this one did (each at its hash in `modules`, the
 * pass's own), with the sources of the entries it adds. Undefined when nothing changes, so a pass that imports
 * nothing new writes nothing.
 */
export function nextModuleRecord(
  recordedText: string | undefined,
  imported: readonly string[] | undefined,
  modules: ResolvedModules,
): NextModuleRecord | undefined {
  if (imported === undefined || imported.length === 0) return undefined;
  const used = recordedText === undefined ? new Map<string, string>() : decodeModuleRecord(recordedText);
  const sources = new Map<string, string>();
  for (const specifier of imported) {
    const hash = modules.hashes.get(specifier);
    const source = modules.sources[specifier];
    if (hash === undefined || source === undefined || used.get(specifier) === hash) continue;
    used.set(specifier, hash);
    sources.set(hash, source);
  }
  if (sources.size === 0) return undefined;
  return { text: encodeModuleRecord(used), sources: [...sources].map(([digest, source]) => ({ digest, source })) };
}

/**
 * The modules a pass of the execution runs with: the runtime's current ones, except that each module an earlier
 * pass imported keeps the source it had then (read with `readSources` when the current one differs). A recorded
 * module whose source is neither current nor kept (an execution recorded before sources were kept) is a divergence.
 */
export async function pinnedModules(
  recordedText: string | undefined,
  current: ResolvedModules,
  readSources: (digests: string[]) => Promise<ReadonlyMap<string, string>>,
): Promise<{ ok: true; modules: ResolvedModules } | { ok: false; failure: ModuleFailure }> {
  if (recordedText === undefined) return { ok: true, modules: current };
  let used: Map<string, string>;
  try {
    used = decodeModuleRecord(recordedText);
  } catch (error) {
    return failed("store", `The execution cannot be resumed: ${(error as Error).message}.`);
  }
  const moved = [...used].filter(([specifier, hash]) => current.hashes.get(specifier) !== hash);
  if (moved.length === 0) return { ok: true, modules: current };
  let kept: ReadonlyMap<string, string>;
  try {
    kept = await readSources([...new Set(moved.map(([, hash]) => hash))]);
  } catch (error) {
    return failed("store", `The execution's modules could not be read from the journal (${(error as Error).message}).`);
  }
  const sources = Object.assign(Object.create(null) as Record<string, string>, current.sources);
  const hashes = new Map(current.hashes);
  for (const [specifier, hash] of moved) {
    const source = kept.get(hash);
    // A kept source is checked against its digest: the journal is read, never trusted.
    if (source === undefined || moduleDigest(source) !== hash) return failed("divergence", goneMessage(specifier));
    sources[specifier] = source;
    hashes.set(specifier, hash);
  }
  return { ok: true, modules: { sources: Object.freeze(sources), types: current.types, hashes } };
}

function failed(kind: ModuleFailure["kind"], error: string): { ok: false; failure: ModuleFailure } {
  return { ok: false, failure: { kind, error } };
}

function goneMessage(specifier: string): string {
  return (
    `Replay diverged before the program ran: the source of the module "${specifier}" it imported is no longer ` +
    "available (it changed since and the journal kept no copy). A resumed run must see the same modules, or its " +
    "replayed calls could mean something else. Nothing was run; start a new execution to use the current modules."
  );
}
