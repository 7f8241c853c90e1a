/**
 * The states of a connector call: the five the journal stores, and the one vocabulary every view of a call
 * uses (the progress feed, the execution timeline, the CLI and the inspector page), so a word means one thing.
 */

/** Life of a call as stored (`CallRecord.status`): `executing → applied`, `pending → executing → applied`, `error`, `reverted`. */
export type CallStatus = "pending" | "executing" | "applied" | "error" | "reverted";

/**
 * Where a connector call (or `step`) stands: the one vocabulary of the progress feed, the execution timeline,
 * the CLI and the inspector. The five stored states ({@link CallStatus}) keep their meaning; four more are read
 * from the record and the run:
 * - `executing`: running now (or, in the journal, started and not settled).
 * - `applied`: ran and returned; its result is recorded.
 * - `replayed`: applied on an earlier pass; this pass got its recorded result from the journal.
 * - `pending`: needs approval; the run is paused on it.
 * - `approved`: a human approved it; the next pass runs it.
 * - `rejected`: needed approval and a human rejected it (stored as `error`).
 * - `error`: threw, or was refused (validation, a limit).
 * - `reverted`: undone by `rollback`.
 * - `interrupted`: stored `executing` in a run that stopped (its process died mid-call); never run again.
 */
export type CallState = CallStatus | "replayed" | "approved" | "rejected" | "interrupted";
