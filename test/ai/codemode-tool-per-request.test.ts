/**
 * Issue 12, item 1, as the README uses the drop-in: a route handler builds `codemodeTool({ tools })` inline for
 * every request and never closes it. Before: ~2 threads, ~10 file descriptors and 25–30 MB per request (40
 * requests took a process from 15 to 95 threads and +733 MB). Now the executor's workers and the store connection
 * are shared per process, so threads, descriptors and memory stay flat. The tool caller (issue 24), which the SDK
 * binds on every step of every request, keeps them flat too.
 */
import { join } from "node:path";
import { tool } from "@ai-sdk/provider-utils";
import { generateText, isStepCount } from "ai";
import { describe, expect, it } from "vitest";
import { fds, settle, threads } from "../support/process-resources.js";
import { z } from "zod";
import { codemodeTool } from "../../src/ai/codemode-tool.js";
import { tempFolder } from "../support/temp-folder.js";
import { lastToolOutput, scriptedModel } from "./support/scripted-model.js";

const MIB = 1024 * 1024;
const REQUESTS = 200;

const tools = {
  add: tool({
    description: "Adds two numbers.",
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => a + b,
  }),
};

/**
 * One request of a route handler: a new drop-in tool (over `tools`, or as a tool caller the SDK binds to the routed
 * tools on every step), one program, the model's answer; nothing closed.
 */
async function request(store: string, n: number, wiring: "tools" | "caller" = "tools"): Promise<string> {
  const model = scriptedModel((prompt) => {
    const output = lastToolOutput(prompt) as { status?: string; result?: unknown } | undefined;
    if (output === undefined) return { code: `async () => tools.add({ a: ${n}, b: 1 })` };
    return { text: `${output.status}: ${String(output.result)}` };
  });
  const common = { model, stopWhen: isStepCount(3), prompt: "add" };
  const { text } =
    wiring === "tools"
      ? await generateText({ ...common, tools: { codemode: codemodeTool({ tools, store }) } })
      : await generateText({
          ...common,
          tools: { ...tools, codemode: codemodeTool({ store }) },
          experimental_toolCallers: { add: ["codemode"] },
        });
  return text;
}

describe("codemodeTool created per request through generateText, never closed", () => {
  it(`${REQUESTS} requests: threads, file descriptors and RSS stay flat`, async () => {
    const store = `file:${join(tempFolder("codemode-per-request-"), "codemode.db")}`;
    // Warm: the first request loads the modules, the wasm, the store driver and the first worker.
    expect(await request(store, 0)).toBe("completed: 1");
    await settle();
    const before = { threads: threads(), fds: fds(), rss: process.memoryUsage().rss };
    for (let n = 1; n <= REQUESTS; n++) expect(await request(store, n)).toBe(`completed: ${n + 1}`);
    const during = { threads: threads(), fds: fds() };
    await settle();
    const after = { threads: threads(), fds: fds(), rss: process.memoryUsage().rss };
    console.info(
      `per request (${REQUESTS} × generateText + codemodeTool): threads ${before.threads} → ${during.threads} → ` +
        `${after.threads} after GC; fds ${before.fds} → ${during.fds} → ${after.fds}; RSS ` +
        `${(before.rss / MIB).toFixed(0)} → ${(after.rss / MIB).toFixed(0)} MiB`,
    );
    expect(during.threads).toBeLessThanOrEqual(before.threads + 4);
    expect(after.threads).toBeLessThanOrEqual(before.threads + 2);
    expect(after.fds).toBeLessThanOrEqual(before.fds + 4);
    // Before the fix 40 requests alone added +733 MB.
    expect(after.rss - before.rss).toBeLessThan(150 * MIB);
  });

  it(`${REQUESTS} requests of the tool caller (bound on every step): threads and file descriptors stay flat`, async () => {
    const store = `file:${join(tempFolder("codemode-per-request-caller-"), "codemode.db")}`;
    expect(await request(store, 0, "caller")).toBe("completed: 1");
    await settle();
    const before = { threads: threads(), fds: fds(), rss: process.memoryUsage().rss };
    for (let n = 1; n <= REQUESTS; n++) expect(await request(store, n, "caller")).toBe(`completed: ${n + 1}`);
    await settle();
    const after = { threads: threads(), fds: fds(), rss: process.memoryUsage().rss };
    console.info(
      `per request (${REQUESTS} × generateText + codemodeTool() caller): threads ${before.threads} → ${after.threads}; ` +
        `fds ${before.fds} → ${after.fds}; RSS ${(before.rss / MIB).toFixed(0)} → ${(after.rss / MIB).toFixed(0)} MiB`,
    );
    expect(after.threads).toBeLessThanOrEqual(before.threads + 2);
    expect(after.fds).toBeLessThanOrEqual(before.fds + 4);
    expect(after.rss - before.rss).toBeLessThan(150 * MIB);
  });
});
