/**
 * The outcome of a codemode run as its UI part says it: how the run stands, from the part's state, its output and
 * the refusal text of a too-late answer.
 */
import type { EditedCall, FailureKind } from "../../runtime/types.js";
import { readCodemodeRefusal } from "../ui/codemode-refusal.js";

type PartRecord = Record<string, unknown>;

function recordOf(value: unknown): PartRecord | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as PartRecord) : undefined;
}

/**
 * How the run stands:
 * - `streaming-input`: the model is still writing the program.
 * - `running`: the program runs (calls and logs arrive live).
 * - `awaiting-approval`: paused; `pending` lists the calls waiting for a person.
 * - `answered`: the person answered on this card; the server has not replied yet.
 * - `completed`: the run finished; `result` is its value.
 * - `error`: the run failed (`kind` says how), or the server refused the answer (`kind` is the refusal's).
 * - `rejected`: a person rejected a call and the run stopped (`reason` as the model reads it).
 * - `decided-elsewhere`: the answer on this card came after someone decided the call elsewhere (the inspector, the
 *   CLI, another tab) differently; nothing ran for it. `completed` / `error` with `decidedElsewhere: true` when
 *   the other decision was the same (the card then shows the stored outcome).
 * - `expired`: nobody decided in time; the run was ended (`expirePaused`).
 */
export type CodemodeRunOutcome =
  | { status: "streaming-input" }
  | { status: "running" }
  | { status: "awaiting-approval" }
  | { status: "answered"; approved: boolean }
  | { status: "completed"; result: unknown; decidedElsewhere: boolean; edited?: EditedCall[] }
  | { status: "error"; error: string; kind: FailureKind | undefined; decidedElsewhere: boolean }
  | { status: "rejected"; reason: string | undefined }
  | { status: "decided-elsewhere"; error: string }
  | { status: "expired"; error: string };

/** How the run of a part stands; `approval` is the part's approval record. */
export function outcomeOf(record: PartRecord, approval: PartRecord | undefined): CodemodeRunOutcome {
  const state = record["state"];
  switch (state) {
    case "input-streaming":
      return { status: "streaming-input" };
    case "approval-requested":
      return { status: "awaiting-approval" };
    case "approval-responded":
      return { status: "answered", approved: approval?.["approved"] === true };
    case "output-denied": {
      const reason = approval?.["reason"];
      return { status: "rejected", reason: typeof reason === "string" ? reason : undefined };
    }
    case "output-error": {
      const errorText = typeof record["errorText"] === "string" ? record["errorText"] : "The tool call failed.";
      const refusal = readCodemodeRefusal(errorText);
      if (refusal === "expired") return { status: "expired", error: errorText };
      if (refusal === "decided-elsewhere") return { status: "decided-elsewhere", error: errorText };
      return { status: "error", error: errorText, kind: undefined, decidedElsewhere: false };
    }
    case "output-available":
      return finalOutcome(record);
    default:
      return { status: "running" };
  }
}

function finalOutcome(record: PartRecord): CodemodeRunOutcome {
  const output = recordOf(record["output"]);
  if (record["preliminary"] === true || output?.["status"] === "running") return { status: "running" };
  const decidedElsewhere = output?.["decidedElsewhere"] === true;
  if (output?.["status"] === "completed") {
    const edited = output["edited"];
    return {
      status: "completed",
      result: output["result"],
      decidedElsewhere,
      ...(Array.isArray(edited) ? { edited: edited as EditedCall[] } : {}),
    };
  }
  if (output?.["status"] === "error") {
    const kind = output["kind"];
    if (kind === "expired")
      return { status: "expired", error: typeof output["error"] === "string" ? output["error"] : "Expired." };
    return {
      status: "error",
      error: typeof output["error"] === "string" ? output["error"] : "The run failed.",
      kind: typeof kind === "string" ? (kind as FailureKind) : undefined,
      decidedElsewhere,
    };
  }
  // A paused output the chat bridge did not turn into an approval request (no bridge on the route).
  if (output?.["status"] === "paused") return { status: "awaiting-approval" };
  return { status: "completed", result: record["output"], decidedElsewhere: false };
}

/** Whether two outcomes say the same (the previous one is then kept). */
export function sameOutcome(a: CodemodeRunOutcome, b: CodemodeRunOutcome): boolean {
  if (a.status !== b.status) return false;
  // Outcomes are small (a result is compared by its JSON once per change of the part, not per call).
  return JSON.stringify(a) === JSON.stringify(b);
}
