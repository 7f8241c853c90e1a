/**
 * The one message for a run stopped at its time budget, shared by the in-process session and the
 * worker's hard stop. It says what counts: wall-clock time from the start of this run, awaited host
 * (connector) calls included; time between runs — a durable execution paused for approval — is not.
 */

/** The error text of a run that exceeded `timeoutMs`. */
export function timeoutMessage(timeoutMs: number): string {
  return (
    `The program exceeded its time budget of ${timeoutMs} ms (timeoutMs) and was stopped. The budget counts wall-clock ` +
    "time from the start of this run, including time spent awaiting connector calls; time between runs (an execution " +
    "paused for approval) is not counted. Make fewer or faster calls per run, or raise limits.timeoutMs."
  );
}
