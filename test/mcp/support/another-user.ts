/**
 * What another signed-in user gets from an owner's paused execution through the inspector's API and the owner's
 * approval link: nothing listed, read or decided (`404`, `not-found`), the link refused (`403`). Shared by the tests
 * that run the documented link setup in one process and behind a load balancer.
 */
import { expect } from "vitest";

export interface AnotherUserProbe {
  /** The inspector API's base URL (`…/codemode/api`). */
  api: string;
  /** The app's origin, sent with the posts (they are same-site: the refusal must come from the owner rule). */
  origin: string;
  /** The other user's request headers (their session). */
  headers: Record<string, string>;
  /** The owner's paused execution. */
  executionId: string;
  /** The owner's approval link for it. */
  link: string;
  /** A word of the owner's arguments that must never reach the other user. */
  secretWord: string;
}

/** Asserts the other user can list, read and decide nothing of the execution, nor open or post its link. */
export async function expectNothingForAnotherUser(probe: AnotherUserProbe): Promise<void> {
  const { api, origin, headers, executionId, link, secretWord } = probe;
  const listed = await fetch(`${api}/executions?limit=500`, { headers });
  expect(listed.status).toBe(200);
  const text = await listed.text();
  expect(text).not.toContain(executionId);
  expect(text).not.toContain(secretWord);
  expect(await (await fetch(`${api}/pending`, { headers })).json()).toEqual({ pending: [] });
  const read = await fetch(`${api}/executions/${executionId}`, { headers });
  expect(read.status).toBe(404);
  expect(await read.text()).not.toContain(secretWord);
  for (const [action, body] of [
    ["approve", {}],
    ["decide", { decisions: [{ seq: 1, approved: true }] }],
    ["reject", { reason: "not yours" }],
    ["rollback", {}],
  ] as const) {
    const acted = await fetch(`${api}/executions/${executionId}/${action}`, {
      method: "POST",
      headers: { ...headers, origin, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(await acted.json()).toMatchObject({ output: { status: "error", kind: "not-found" } });
  }
  expect((await fetch(link, { headers })).status).toBe(403);
  const posted = await fetch(link, {
    method: "POST",
    headers: { ...headers, origin, "content-type": "application/x-www-form-urlencoded" },
    body: "choice-1=approve",
  });
  expect(posted.status).toBe(403);
}
