// Shared by the e2e tests that answer approvals as a hostile client would: capture the request an Approve
// sends, change it, and send it again from the page (with the page's session cookie).
import assert from "node:assert/strict";

/**
 * Clicks `button` and captures the request it sends: held back (`deliver: false`, the page then shows that the
 * answer failed) or let through. Resolves with the parsed body once the request was seen.
 */
export async function captureAnswer(page, button, { deliver }) {
  let captured;
  await page.route("**/api/chat", async (route) => {
    captured = route.request().postData();
    await (deliver ? route.continue() : route.abort());
  });
  const answered = deliver
    ? page.waitForResponse((response) => new URL(response.url()).pathname === "/api/chat")
    : page.getByTestId("chat-error").waitFor();
  await button.click();
  const response = await answered;
  // Read to its end: the server saves the chat when the stream ends.
  if (deliver) await response.finished();
  await page.unroute("**/api/chat");
  assert.ok(captured, "the answer was captured");
  return JSON.parse(captured);
}

/** The part a captured answer answers. */
export function answeredPart(body) {
  const part = body.message.parts.find((candidate) => candidate.state === "approval-responded");
  assert.ok(part, "the captured message answers an approval");
  return part;
}

/** A copy of a captured answer with the answered part changed by `change`. */
export function tampered(body, change) {
  const copy = structuredClone(body);
  change(answeredPart(copy));
  return copy;
}

/** Sends `body` to the chat route from the page (its session cookie), as a hostile client would. */
export async function send(page, body) {
  return page.evaluate(async (text) => {
    const response = await fetch("/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: text,
    });
    return { status: response.status, text: await response.text() };
  }, JSON.stringify(body));
}
