/**
 * The one message for a run stopped at `maxCallsInFlight`: what happened (calls started and never awaited),
 * the limit by name, that calls already started are not undone, and what to write instead.
 */

/** The error of a run stopped for starting more than `limit` calls without awaiting them. */
export function callsInFlightMessage(limit: number): string {
  const count = limit.toLocaleString("en-US");
  return (
    `The program started more than ${count} connector calls without waiting for them (at most ${count} may be in ` +
    "flight at once: maxCallsInFlight) and was stopped (calls it had already started are not undone). Await each call, or " +
    "await them in batches (a Promise.all of at most a few hundred at a time), or pass many items to one call when " +
    "the method accepts a list."
  );
}
