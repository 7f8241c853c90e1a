/**
 * The other invocation of the end-to-end bench (`journaled-call-e2e.ts`): a fresh process that opens the same
 * `file:` store with the same tools, approves the paused execution and prints one JSON line: how long `approve()`
 * took (the store opened and the worker booted inside it, as in a cold invocation) and its outcome.
 * Env: STORE_URL, EXECUTION_ID.
 */
import { createCodemodeRuntime } from "../src/ai/create-codemode-runtime.js";
import { shopConnector } from "./journaled-call-support.js";

const runtime = createCodemodeRuntime({
  connectors: { tools: shopConnector() },
  store: process.env["STORE_URL"] ?? "",
});
const started = performance.now();
const out = await runtime.approve({ executionId: process.env["EXECUTION_ID"] ?? "" });
const approveMs = performance.now() - started;
process.stdout.write(
  `${JSON.stringify({ approveMs, status: out.status, result: out.status === "completed" ? out.result : out })}\n`,
);
await runtime.close();
process.exit(0);
