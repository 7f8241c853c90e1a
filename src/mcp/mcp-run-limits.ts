/**
 * Bounds on program runs over Streamable HTTP: a request (a JSON-RPC batch may hold many calls)
 * starts at most `perRequest` runs, and one owner has at most `perOwner` in flight over all its
 * sessions. The excess gets a tool error written for the model; nothing of it runs. A run also
 * marks its session busy, so the session is never closed to make room while it runs.
 */
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { McpRunGate } from "./create-codemode-mcp-server.js";
import type { McpHttpSession } from "./mcp-http-sessions.js";

/** The run limits of one handler. */
export interface RunLimits {
  /** A fresh marker for one HTTP request (passed to the transport as its `authInfo`). */
  request(): AuthInfo;
  /** The gate of a server of `scope` (on `session`, when stateful). */
  gate(scope: string | undefined, session?: McpHttpSession): McpRunGate;
}

/** Run limits: `perRequest` runs started by one request, `perOwner` in flight per scope. */
export function createRunLimits({
  perRequest,
  perOwner,
  now,
}: {
  perRequest: number;
  perOwner: number;
  now: () => number;
}): RunLimits {
  // One AuthInfo per HTTP request: the SDK hands it to every message of that request, so the gate
  // can count a batch's runs. Nothing reads its fields.
  const requestRuns = new WeakMap<AuthInfo, { started: number }>();
  const ownerRuns = new Map<string | undefined, number>();
  const request = (): AuthInfo => {
    const info: AuthInfo = { token: "", clientId: "", scopes: [] };
    requestRuns.set(info, { started: 0 });
    return info;
  };
  const gate =
    (scope: string | undefined, session?: McpHttpSession): McpRunGate =>
    (authInfo) => {
      const ofRequest = authInfo === undefined ? undefined : requestRuns.get(authInfo);
      if (ofRequest !== undefined && ofRequest.started >= perRequest)
        return (
          `Not run: one request may start at most ${perRequest} codemode programs and this one asked for more. ` +
          "Nothing of this program ran; call codemode for it again on its own."
        );
      const running = ownerRuns.get(scope) ?? 0;
      if (running >= perOwner)
        return (
          `Not run: ${running} codemode programs of this user are already running (at most ${perOwner} at a time). ` +
          "Nothing of this program ran; wait for the others to finish, then call codemode again."
        );
      if (ofRequest !== undefined) ofRequest.started++;
      ownerRuns.set(scope, running + 1);
      if (session !== undefined) session.busy++;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        const left = (ownerRuns.get(scope) ?? 1) - 1;
        if (left === 0) ownerRuns.delete(scope);
        else ownerRuns.set(scope, left);
        if (session !== undefined) {
          session.busy--;
          session.lastSeenMs = now();
        }
      };
    };
  return { request, gate };
}
