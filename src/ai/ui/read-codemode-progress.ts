/**
 * Reading a codemode tool part's progress in a UI: the calls and console lines of the
 * running program (a preliminary result), or the last snapshot kept on the final output.
 * Runs in the browser; imports no server code.
 */
import { isCodemodeProgress, type CodemodeProgress } from "../codemode-progress.js";

/** What {@link readCodemodeProgress} returns. */
export interface CodemodePartProgress {
  /** `true` while the program runs (the part holds a preliminary result). */
  running: boolean;
  progress: CodemodeProgress;
}

/** Part states in which the approval's descriptor holds the progress of the pass that paused. */
const APPROVAL_STATES: ReadonlySet<unknown> = new Set(["approval-requested", "approval-responded", "output-denied"]);

/**
 * The progress of a `tool-codemode` UI part, or `undefined` when it has none (not started,
 * a program waiting for approval before it runs, progress off, or an ordinary output without calls).
 * A part waiting for (or answered on) an approval shows what the paused pass did: the calls that
 * already ran and the ones waiting (`descriptor.progress`), with `running: false`.
 *
 * @example
 * ```tsx
 * const view = readCodemodeProgress(part);
 * view?.progress.calls.map((call) => <li key={call.seq}>{call.connector}.{call.method}: {call.state}</li>);
 * ```
 */
export function readCodemodeProgress(part: unknown): CodemodePartProgress | undefined {
  if (typeof part !== "object" || part === null) return undefined;
  const record = part as Record<string, unknown>;
  if (APPROVAL_STATES.has(record["state"])) {
    const approval = record["approval"];
    const descriptor =
      typeof approval === "object" && approval !== null
        ? (approval as Record<string, unknown>)["descriptor"]
        : undefined;
    const paused =
      typeof descriptor === "object" && descriptor !== null
        ? (descriptor as Record<string, unknown>)["progress"]
        : undefined;
    return isCodemodeProgress(paused) ? { running: false, progress: paused } : undefined;
  }
  if (record["state"] !== "output-available") return undefined;
  const output = record["output"];
  if (isCodemodeProgress(output)) return { running: record["preliminary"] === true, progress: output };
  if (typeof output !== "object" || output === null) return undefined;
  const kept = (output as Record<string, unknown>)["progress"];
  return isCodemodeProgress(kept) ? { running: false, progress: kept } : undefined;
}
