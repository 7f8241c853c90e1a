/**
 * A realistic program end to end (issue 38): 20 zod-validated calls (10 `readOnly` lookups, 9 reservations with
 * effects, one charge that needs approval). ai-codemode runs it on a `file:` store with the default worker executor
 * until it pauses; another process (`journaled-call-e2e-child.ts`) opens the same file and approves; the run
 * completes there. `@ai-sdk/code-mode` runs the same 20 calls in one go: its approval is an in-process interrupt
 * resumed from a signed continuation the client carries, with no store, so it has no pause across processes to time.
 */
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createCodemodeRuntime } from "../src/ai/create-codemode-runtime.js";
import { collectGarbage } from "./gc.js";
import { benchFolder, median, SHOP_BODY, SHOP_RESULT, shopConnector, shopTools } from "./journaled-call-support.js";
import { loadCodeModePeer, PEER_MISSING } from "./peers/code-mode-peer.js";

const SAMPLES = 5;
const CHILD = fileURLToPath(new URL("./journaled-call-e2e-child.ts", import.meta.url));

interface ChildReport {
  approveMs: number;
  status: string;
  result: unknown;
}

/** Runs the approving child; resolves with its report and the ms from spawn to its line. */
function approveElsewhere(storeUrl: string, executionId: string): Promise<ChildReport & { spawnMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ["--import", "tsx", CHILD], {
      env: { ...process.env, STORE_URL: storeUrl, EXECUTION_ID: executionId },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("exit", (code) => {
      const spawnMs = performance.now() - started;
      const line = out.split("\n").find((text) => text.startsWith("{"));
      if (code !== 0 || line === undefined) reject(new Error(`approving process exited ${String(code)}: ${err}`));
      else resolve({ ...(JSON.parse(line) as ChildReport), spawnMs });
    });
  });
}

/** The end-to-end section. */
export async function endToEndSection(): Promise<string> {
  const folder = benchFolder("codemode-bench-e2e-");
  const storeUrl = `file:${join(folder.path, "shop.db")}`;
  const runtime = createCodemodeRuntime({ connectors: { tools: shopConnector() }, store: storeUrl });
  const peer = await loadCodeModePeer();
  const peerTools = shopTools();
  const load = loadavg()[0] ?? 0;
  const paused: number[] = [];
  const approved: number[] = [];
  const spawned: number[] = [];
  const peerRuns: number[] = [];
  const warmPaused: number[] = [];
  const warmApproved: number[] = [];
  try {
    for (let sample = -1; sample < SAMPLES; sample++) {
      // The pool releases idle workers while the other process runs: an untimed run boots one again, so the rows
      // below time a warm process.
      await runtime.execute({ code: "async () => 1" });
      // The program approved by the process that paused it.
      collectGarbage();
      let started = performance.now();
      const again = await runtime.execute({ code: `async () => { ${SHOP_BODY} }` });
      const warmPausedMs = performance.now() - started;
      if (again.status !== "paused") throw new Error(`expected a pause: ${JSON.stringify(again).slice(0, 300)}`);
      started = performance.now();
      const done = await runtime.approve({ executionId: again.executionId });
      const warmApprovedMs = performance.now() - started;
      if (done.status !== "completed" || done.result !== SHOP_RESULT)
        throw new Error(`approval: ${JSON.stringify(done).slice(0, 300)}`);
      // The program paused here and approved by another process.
      collectGarbage();
      started = performance.now();
      const out = await runtime.execute({ code: `async () => { ${SHOP_BODY} }` });
      const pausedMs = performance.now() - started;
      if (out.status !== "paused") throw new Error(`expected a pause: ${JSON.stringify(out).slice(0, 300)}`);
      const child = await approveElsewhere(storeUrl, out.executionId);
      if (child.status !== "completed" || child.result !== SHOP_RESULT)
        throw new Error(`approval elsewhere: ${JSON.stringify(child).slice(0, 300)}`);
      let peerMs: number | undefined;
      if (peer !== undefined) {
        collectGarbage();
        started = performance.now();
        const value = await peer.run(SHOP_BODY, peerTools);
        peerMs = performance.now() - started;
        if (value !== SHOP_RESULT) throw new Error(`peer returned ${JSON.stringify(value)}`);
      }
      // The first round warms both (module loading, the worker pool); it is not counted.
      if (sample < 0) continue;
      paused.push(pausedMs);
      warmPaused.push(warmPausedMs);
      warmApproved.push(warmApprovedMs);
      approved.push(child.approveMs);
      spawned.push(child.spawnMs);
      if (peerMs !== undefined) peerRuns.push(peerMs);
    }
  } finally {
    await runtime.close();
    folder.cleanup();
  }
  const loadAfter = loadavg()[0] ?? 0;
  const ms = (values: number[]) => median(values).toFixed(1);
  const peerRow =
    peer === undefined
      ? [`| \`@ai-sdk/code-mode\` | _${PEER_MISSING}_ | – | – |`]
      : [
          `| \`@ai-sdk/code-mode\` ${peer.version}, the 20 calls in one run (no journal, no pause) | ${ms(peerRuns)} | – | – |`,
        ];
  return [
    "### A realistic program end to end: pause, approve in another process",
    "",
    `20 zod-validated calls (10 \`readOnly\` lookups, 9 reservations with effects, 1 charge that needs approval), median of ${SAMPLES} after a warm-up. ai-codemode: \`runtime.execute\` on a \`file:\` store (default worker executor) until it pauses on the charge; then a new \`node\` process opens the same file with the same tools and calls \`approve()\` (timed inside it: opening the store and booting the worker are part of it, as in a cold invocation; spawn → exit adds Node and \`tsx\` start-up), which replays the 19 recorded calls, runs the charge and completes. The peer runs the same program body with the same tools and no approval: its approval (an experimental interrupt, resumed in process from a signed continuation the client carries) keeps no server-side state, so there is no pause across processes to compare. Load average (1 min): ${load.toFixed(2)} before, ${loadAfter.toFixed(2)} after.`,
    "",
    "| runtime | start → paused (ms) | `approve()` → completed (ms) | spawn → exit of the approving process (ms) |",
    "|---|---:|---:|---:|",
    `| ai-codemode (worker, \`file:\` store), approved by another process | ${ms(paused)} | ${ms(approved)} | ${ms(spawned)} |`,
    `| ai-codemode, approved by the same (warm) process | ${ms(warmPaused)} | ${ms(warmApproved)} | – |`,
    ...peerRow,
  ].join("\n");
}
