import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { tool } from "ai";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { CodemodeToolOptions } from "../../../src/ai/build-codemode-tool.js";
import { isCodemodeProgress, type CodemodeProgress } from "../../../src/ai/codemode-progress.js";
import { createCodemodeRuntime } from "../../../src/ai/create-codemode-runtime.js";
import { readCodemodeProgress } from "../../../src/ai/ui/read-codemode-progress.js";
import { QuickJSExecutor } from "../../../src/sandbox/quickjs-executor.js";
import { chatRoute, Conversation, scriptedModel } from "./support/chat-harness.js";

const PROGRAM = `async () => {
  console.log("start");
  const a = await tools.step({ n: 1 });
  const b = await tools.step({ n: 2 });
  console.log("between");
  const c = await tools.step({ n: 3 });
  return a + b + c;
}`;

let directory: string;
const opened: Array<ReturnType<typeof createCodemodeRuntime>> = [];
const executor = new QuickJSExecutor({ isolation: "in-process" });

function openRuntime(name: string, approveProgram = false) {
  let nextId = 0;
  const runtime = createCodemodeRuntime({
    approveProgram,
    tools: {
      step: tool({
        description: "A slow step.",
        inputSchema: z.object({ n: z.number() }),
        execute: async ({ n }) => {
          await new Promise((resolve) => setTimeout(resolve, 30));
          return n * 10;
        },
      }),
    },
    name,
    store: `file:${path.join(directory, "codemode.db")}`,
    executor,
    // Same ids and clock in both runs, so the model's input can be compared byte for byte.
    _internal: { generateId: () => `id${nextId++}`, now: () => 1_700_000_000_000 },
  });
  opened.push(runtime);
  return runtime;
}

beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), "codemode-progress-"));
});
afterEach(async () => {
  for (const runtime of opened.splice(0)) await runtime.close();
  rmSync(directory, { recursive: true, force: true });
});
afterAll(async () => {
  await executor.dispose();
});

async function converse(name: string, toolOptions: CodemodeToolOptions) {
  const runtime = openRuntime(name);
  const model = scriptedModel(PROGRAM);
  const chat = new Conversation(chatRoute({ runtime, model, toolOptions }));
  await chat.say("run it");
  return { chat, model };
}

describe("live nested calls through the SSE wire", () => {
  it("preliminary snapshots arrive in order before the final output; the model reads the same bytes without progress", async () => {
    const withProgress = await converse("a", { progress: { throttleMs: 0 } });
    const outputs = withProgress.chat.chunks.filter((chunk) => chunk.type === "tool-output-available");
    const preliminary = outputs.filter((chunk) => chunk.preliminary === true).map((chunk) => chunk.output);
    const snapshots = preliminary.filter(isCodemodeProgress) as CodemodeProgress[];
    const final = outputs.filter((chunk) => chunk.preliminary !== true);
    expect(final).toHaveLength(1);
    expect(outputs.at(-1)).toBe(final[0]);
    expect(snapshots.length).toBeGreaterThanOrEqual(3);
    // In order: totals never go back, and each call moves executing → applied.
    for (let index = 1; index < snapshots.length; index++) {
      expect(snapshots[index]!.totalCalls).toBeGreaterThanOrEqual(snapshots[index - 1]!.totalCalls);
      expect(snapshots[index]!.counts.applied).toBeGreaterThanOrEqual(snapshots[index - 1]!.counts.applied);
    }
    expect(snapshots.some((snapshot) => snapshot.calls.some((call) => call.state === "executing"))).toBe(true);
    const last = (final[0] as { output: { progress: CodemodeProgress } }).output.progress;
    expect(last.calls.map((call) => [call.seq, call.method, call.state, call.args])).toEqual([
      [1, "step", "applied", { n: 1 }],
      [2, "step", "applied", { n: 2 }],
      [3, "step", "applied", { n: 3 }],
    ]);
    expect(last.calls.every((call) => typeof call.durationMs === "number")).toBe(true);
    expect(last.logs).toEqual(["start", "between"]);

    // The client keeps the calls on the finished part.
    const [part] = withProgress.chat.codemodeParts();
    expect(part?.state).toBe("output-available");
    expect(readCodemodeProgress(part)).toMatchObject({ running: false, progress: { totalCalls: 3 } });

    const without = await converse("b", { progress: false });
    expect(
      without.chat.chunks.some((chunk) => chunk.type === "tool-output-available" && chunk.preliminary === true),
    ).toBe(false);
    expect(withProgress.model.doStreamCalls).toHaveLength(2);
    expect(without.model.doStreamCalls).toHaveLength(2);
    const input = (model: typeof without.model) => JSON.stringify(model.doStreamCalls[1]?.prompt);
    expect(input(withProgress.model)).toBe(input(without.model));
    expect(withProgress.chat.lastText()).toBe(without.chat.lastText());
    expect(withProgress.chat.lastText()).toContain('"result":60');
  });

  it("a completed result crosses the wire once, and the progress kept on it says the run completed", async () => {
    const runtime = openRuntime("big");
    const big = "async () => { console.log('making it'); await tools.step({ n: 1 }); return 'x'.repeat(600000); }";
    const chat = new Conversation(
      chatRoute({ runtime, model: scriptedModel(big), toolOptions: { progress: { throttleMs: 0 } } }),
    );
    await chat.say("run it");
    const outputs = chat.chunks.filter((chunk) => chunk.type === "tool-output-available");
    // Preliminary results are snapshots of the running program only; the SDK's preliminary copy of the final is gone.
    const preliminary = outputs.filter((chunk) => chunk.preliminary === true).map((chunk) => chunk.output);
    expect(preliminary.length).toBeGreaterThan(0);
    expect(preliminary.every((output) => isCodemodeProgress(output) && output.status === "running")).toBe(true);
    const carrying = outputs.filter((chunk) => JSON.stringify(chunk.output).includes("x".repeat(1000)));
    expect(carrying).toHaveLength(1);
    const wire = JSON.stringify(chat.chunks).length;
    expect(wire).toBeLessThan(1.5 * 600_000);
    const [part] = chat.codemodeParts();
    expect(part?.output).toMatchObject({ status: "completed", progress: { status: "completed", totalCalls: 1 } });
    expect(readCodemodeProgress(part)).toMatchObject({ running: false, progress: { status: "completed" } });
  });

  it("a run resumed by an approval streams its calls too (program approval: the whole program runs there)", async () => {
    const runtime = openRuntime("c", true);
    const model = scriptedModel(PROGRAM);
    const chat = new Conversation(chatRoute({ runtime, model }));
    await chat.say("run it");
    expect(chat.openApproval().approval?.descriptor).toMatchObject({ method: "program" });
    await chat.answer({ approved: true });
    const outputs = chat.chunks.filter((chunk) => chunk.type === "tool-output-available");
    const snapshots = outputs.filter((chunk) => chunk.preliminary === true).map((chunk) => chunk.output);
    expect(snapshots.length).toBeGreaterThanOrEqual(1);
    expect(snapshots.every(isCodemodeProgress)).toBe(true);
    const final = outputs.filter((chunk) => chunk.preliminary !== true);
    expect(final).toHaveLength(1);
    expect(outputs.indexOf(final[0]!)).toBe(outputs.length - 1);
    const [part] = chat.codemodeParts();
    expect(readCodemodeProgress(part)).toMatchObject({
      running: false,
      progress: { status: "completed", totalCalls: 3, counts: { applied: 3 } },
    });
    // The model continued with the outcome only.
    expect(JSON.stringify(model.doStreamCalls[1]?.prompt)).not.toContain("totalCalls");
    expect(chat.lastText()).toContain('"result":60');
  });
});
