/**
 * One value of every kind JSON cannot hold (BigInt, Map, Set, Date, bytes, undefined, -0, NaN), run through a real
 * execution, reads the same in every place people and models see it: the sandbox's log, the model's view
 * (`toModelOutput`), the chat (the tool output part and the approval card), the CLI's `show` and the inspector's API.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { createCodemodeApprovalRequest, type PausedCodemodeOutput } from "../../src/ai/ui/paused-output.js";
import { createCodemodeInspector } from "../../src/inspector/create-codemode-inspector.js";
import { cli } from "../cli/cli-support.js";
import { shopConnector } from "../inspector/journal-fixture.js";
import { testClock } from "../runtime/runtime-fixture.js";
import { tempFolder } from "../support/temp-folder.js";
import { SAMPLE_SOURCE, SAMPLE_TEXT } from "./display-table.js";

const ORIGIN = "https://app.example";

describe("one display of values in every place", () => {
  it("a result and a call's arguments read as the sample's display in logs, model, chat, CLI and inspector", async () => {
    const folder = tempFolder("codemode-display-");
    const storeUrl = `file:${join(folder, "codemode.db")}`;
    const runtime = createCodemodeRuntime({
      store: storeUrl,
      connectors: { shop: shopConnector(testClock(), new Promise(() => {})) },
    });
    let closed = false;
    try {
      const codemode = runtime.tool({ progress: false });
      const code = `async () => { const value = ${SAMPLE_SOURCE}; console.log(value); return value; }`;
      const output = (await codemode.execute!({ code }, { toolCallId: "t1", messages: [], context: undefined })) as {
        status: string;
        executionId: string;
        result: unknown;
        logs: string[];
      };
      expect(output.status).toBe("completed");
      // The log line and the chat's tool output part.
      expect(output.logs).toEqual([SAMPLE_TEXT]);
      expect(JSON.stringify(output.result)).toBe(SAMPLE_TEXT);
      // The model.
      const modelView = (
        (await codemode.toModelOutput!({ toolCallId: "t1", input: { code }, output: output as never })) as unknown as {
          value: { result: unknown; logs: string[] };
        }
      ).value;
      expect(JSON.stringify(modelView.result)).toBe(SAMPLE_TEXT);
      expect(modelView.logs).toEqual([SAMPLE_TEXT]);

      // The chat's approval card: the arguments of a call that waits.
      const paused = await runtime.execute({ code: `async () => shop.buy(${SAMPLE_SOURCE})` });
      expect(paused.status).toBe("paused");
      const card = await createCodemodeApprovalRequest({ toolCallId: "t2", output: paused as PausedCodemodeOutput });
      expect(JSON.stringify((card.approvalDescriptor as { args: unknown }).args)).toBe(SAMPLE_TEXT);
      const pausedView = (
        (await codemode.toModelOutput!({ toolCallId: "t2", input: { code }, output: paused as never })) as unknown as {
          value: { pending: Array<{ args: unknown }> };
        }
      ).value;
      expect(JSON.stringify(pausedView.pending[0]?.args)).toBe(SAMPLE_TEXT);

      // The inspector's API (the page shows the JSON it reads there).
      const inspector = createCodemodeInspector({ runtime, authorize: () => ({ unscoped: true }) });
      const read = async (id: string) =>
        (await (await inspector(new Request(`${ORIGIN}/codemode/api/executions/${id}`))).json()) as {
          execution: { result?: unknown; logs: string[]; pending?: Array<{ args: unknown }> };
        };
      const completed = await read(output.executionId);
      expect(JSON.stringify(completed.execution.result)).toBe(SAMPLE_TEXT);
      expect(completed.execution.logs).toEqual([SAMPLE_TEXT]);
      const waiting = await read(paused.executionId);
      expect(JSON.stringify(waiting.execution.pending?.[0]?.args)).toBe(SAMPLE_TEXT);

      await runtime.close();
      closed = true;
      // The CLI.
      const show = await cli(["show", output.executionId, "--store", storeUrl], { now: Date.now(), cwd: folder });
      expect(show.code).toBe(0);
      expect(show.stdout).toContain(`Result\n  ${SAMPLE_TEXT}\n`);
      expect(show.stdout).toContain(`  ${SAMPLE_TEXT}`);
      const json = await cli(["show", output.executionId, "--json", "--store", storeUrl], {
        now: Date.now(),
        cwd: folder,
      });
      expect(JSON.stringify((JSON.parse(json.stdout) as { execution: { result: unknown } }).execution.result)).toBe(
        SAMPLE_TEXT,
      );
      const pending = await cli(["show", paused.executionId, "--store", storeUrl], { now: Date.now(), cwd: folder });
      expect(pending.stdout).toContain(SAMPLE_TEXT);
    } finally {
      if (!closed) await runtime.close();
    }
  });
});
