/**
 * The Node flags a sandbox worker starts with. A worker inherits `process.execArgv` by default, and some flags only
 * make sense for the main entry: under `node --input-type=module -e '…'` every worker refused to start. Those are left
 * out; the rest (`--import`, `--require`, `--conditions`, loaders, `--experimental-*`, …) still reach the worker.
 */
import { Worker } from "node:worker_threads";

/** Flags whose next token is their value even when it starts with a dash (`-p "-1"`). */
const VALUE_ALWAYS_FOLLOWS = new Set(["-e", "--eval", "-p", "--print", "-pe"]);

/** Flags that say how the main entry is read or run (a script string, a test run, a watcher), not how code runs. */
const ENTRY_FLAGS = new Set(["-e", "--eval", "-p", "--print", "-pe", "-c", "--check", "-i", "--interactive"]);
const ENTRY_FLAGS_WITH_VARIANTS = ["--input-type", "--run", "--test", "--watch", "--experimental-test"];

function flagName(token: string): string {
  const equals = token.indexOf("=");
  return equals === -1 ? token : token.slice(0, equals);
}

function isEntryFlag(name: string): boolean {
  return (
    ENTRY_FLAGS.has(name) || ENTRY_FLAGS_WITH_VARIANTS.some((flag) => name === flag || name.startsWith(`${flag}-`))
  );
}

/**
 * Groups `execArgv` into one entry per flag with its values: `execArgv` holds no script or program argument, so a
 * token without a leading dash is the value of the flag before it.
 */
function groupFlags(execArgv: readonly string[]): string[][] {
  const groups: string[][] = [];
  for (let index = 0; index < execArgv.length; index += 1) {
    const token = execArgv[index] as string;
    const last = groups.at(-1);
    const takesNext = last !== undefined && last.length === 1 && VALUE_ALWAYS_FOLLOWS.has(last[0] as string);
    if (last !== undefined && (takesNext || !token.startsWith("-"))) last.push(token);
    else groups.push([token]);
  }
  return groups;
}

/**
 * The parent's flags without those of the main entry, grouped per flag; `undefined` when none was removed (the
 * worker then inherits exactly as Node does by default).
 */
export function withoutEntryFlags(execArgv: readonly string[]): string[][] | undefined {
  const groups = groupFlags(execArgv);
  const kept = groups.filter((group) => !isEntryFlag(flagName(group[0] as string)));
  return kept.length === groups.length ? undefined : kept;
}

/** Whether Node accepts these flags in a worker's `execArgv` (V8 and process-wide ones are refused there). */
function acceptedByWorker(execArgv: string[]): boolean {
  try {
    const probe = new Worker("", { eval: true, execArgv, stdout: true, stderr: true });
    probe.unref();
    void probe.terminate();
    return true;
  } catch {
    return false;
  }
}

let cached: { parent: string; result: string[] | undefined } | undefined;

/**
 * The `execArgv` to start a sandbox worker with, or `undefined` to inherit the parent's. Flags Node refuses in a
 * worker (V8 and process-wide ones, such as `--max-old-space-size`) already apply to the whole process, so they are
 * left out of an explicit list rather than failing the worker.
 */
export function sandboxWorkerExecArgv(parent: readonly string[] = process.execArgv): string[] | undefined {
  const key = JSON.stringify(parent);
  if (cached?.parent === key) return cached.result;
  const kept = withoutEntryFlags(parent);
  let result: string[] | undefined;
  if (kept !== undefined) {
    result = acceptedByWorker(kept.flat()) ? kept.flat() : kept.filter((group) => acceptedByWorker(group)).flat();
  }
  cached = { parent: key, result };
  return result;
}
