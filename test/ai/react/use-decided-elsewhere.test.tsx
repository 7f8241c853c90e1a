// @vitest-environment jsdom
/**
 * `useCodemodeDecisions(chat, { statusApi })`: a card that learns by itself that its call was decided elsewhere.
 * The real `useChat`, the signed chat route and the status check (`codemodeApprovalStatus`) in process, a real
 * runtime; the clock is faked (advancing with real time too) so backoff and "no more checks" are read without waiting.
 */
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { join } from "node:path";
import { createCodemodeRuntime } from "../../../src/ai/create-codemode-runtime.js";
import type { useCodemodeDecisions } from "../../../src/ai/react/use-codemode-decisions.js";
import { codemodeApprovalStatus } from "../../../src/ai/ui/codemode-approval-status.js";
import { QuickJSExecutor } from "../../../src/sandbox/quickjs-executor.js";
import { tempFolder } from "../../support/temp-folder.js";
import { bankTools, type Ledger, scriptedModel } from "../ui/support/chat-harness.js";
import { routeTransport, SECRET, type SentRequest, useHarness } from "./support/chat-hooks-harness.js";

const ONE = `async () => { const sent = await bank.transfer({ to: "alice", amount: 500 }); return "sent " + sent.amount; }`;
const STATUS_API = "/api/chat/status";

const executor = new QuickJSExecutor({ isolation: "in-process" });
let visibility: DocumentVisibilityState = "visible";
/** Status checks on their way (the store is real I/O, not on the faked clock). */
let inFlight = 0;

beforeEach(() => {
  visibility = "visible";
  vi.spyOn(document, "visibilityState", "get").mockImplementation(() => visibility);
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"], shouldAdvanceTime: true });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
afterAll(async () => {
  await executor.dispose();
});

/** A chat whose program paused on one transfer, with the status route answering the hook's checks. */
async function setup(options: Parameters<typeof useCodemodeDecisions>[1] = { statusApi: STATUS_API }) {
  const ledger: Ledger = { transfers: [] };
  const runtime = createCodemodeRuntime({
    connectors: { bank: bankTools(ledger) },
    store: `file:${join(tempFolder("codemode-react-status-"), "codemode.db")}`,
    executor,
  });
  const sent: SentRequest[] = [];
  /** What the hook asked the status route, in order, and what it was told. */
  const checks: Array<{ url: string; asked: string[]; decided: string[] }> = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    inFlight += 1;
    try {
      return await answerCheck(url, init);
    } finally {
      inFlight -= 1;
    }
  });
  const answerCheck = async (url: string, init: RequestInit) => {
    const request = new Request(new URL(url, "http://app.test"), init);
    const asked = ((JSON.parse(String(init.body)) as { approvals: Array<{ approvalId: string }> }).approvals ?? []).map(
      (approval) => approval.approvalId,
    );
    const response = await codemodeApprovalStatus({ runtime, request, toolApprovalSecret: SECRET });
    const { decided } = (await response.clone().json()) as { decided: string[] };
    checks.push({ url, asked, decided });
    return response;
  };
  const hook = renderHook(() => useHarness(routeTransport({ runtime, model: scriptedModel(ONE), sent }), options));
  await act(async () => {
    await hook.result.current.chat.sendMessage({ text: "pay" });
  });
  await waitFor(() => expect(hook.result.current.run.outcome.status).toBe("awaiting-approval"));
  return { ledger, runtime, sent, checks, hook, close: () => runtime.close() };
}

/** Lets the faked clock run `ms` ahead, a second at a time, each check that fires answered before the next second. */
async function advance(ms: number): Promise<void> {
  for (let elapsed = 0; elapsed < ms; elapsed += 1_000) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_000);
    });
    await vi.waitFor(() => expect(inFlight).toBe(0), { timeout: 10_000 });
  }
}

describe("useCodemodeDecisions(chat, { statusApi })", () => {
  it("checks only while the card waits, answers once when decided elsewhere, stops after", async () => {
    const { ledger, runtime, sent, checks, hook, close } = await setup();
    try {
      const run = hook.result.current.run;
      const approvalId = String(run.approvalId);
      // Waiting and undecided: asked about this card's approval (signed), told nothing, asked again less often.
      await advance(10_000);
      expect(checks.length).toBeGreaterThanOrEqual(3);
      expect(checks.every((check) => check.url === STATUS_API && check.asked.join() === approvalId)).toBe(true);
      expect(checks.every((check) => check.decided.length === 0)).toBe(true);
      const beforeBackoff = checks.length;
      await advance(10_000);
      expect(checks.length - beforeBackoff).toBeLessThan(beforeBackoff);
      expect(sent).toHaveLength(1);
      expect(hook.result.current.run.outcome.status).toBe("awaiting-approval");

      // Decided in the inspector: the next check says so and the card answers by itself, once.
      await runtime.approve({ executionId: String(run.executionId) });
      expect(ledger.transfers).toEqual([{ to: "alice", amount: 500 }]);
      await advance(30_000);
      await waitFor(() => expect(hook.result.current.run.outcome.status).toBe("completed"));
      expect(hook.result.current.run.outcome).toMatchObject({ result: "sent 500", decidedElsewhere: true });
      // The card lists the run's calls from the stored execution.
      expect(hook.result.current.run.calls.map((call) => `${call.method}:${call.state}`)).toEqual(["transfer:applied"]);
      expect(sent).toHaveLength(2);
      const answered = sent[1]?.messages.flatMap((m) => m.parts).find((p) => p.type === "tool-codemode") as
        | { approval?: { id?: string; approved?: boolean; signature?: string } }
        | undefined;
      expect(answered?.approval).toMatchObject({ id: approvalId, approved: true });
      expect(answered?.approval?.signature).toMatch(/^[\w-]{43}$/);
      // This card decided nothing itself.
      expect(hook.result.current.decisions.statusOf(approvalId)).toEqual({ state: "idle" });

      // Nothing waits any more: no check, no answer, however long the card stays open.
      const after = checks.length;
      await advance(10 * 60_000);
      expect(checks).toHaveLength(after);
      expect(sent).toHaveLength(2);
      expect(ledger.transfers).toHaveLength(1);
    } finally {
      await close();
    }
  });

  it("a hidden tab is not checked; becoming visible checks at once", async () => {
    visibility = "hidden";
    const { runtime, checks, hook, sent, close } = await setup();
    try {
      await advance(5 * 60_000);
      expect(checks).toHaveLength(0);
      await runtime.approve({ executionId: String(hook.result.current.run.executionId) });
      visibility = "visible";
      await act(async () => {
        document.dispatchEvent(new Event("visibilitychange"));
      });
      await waitFor(() => expect(hook.result.current.run.outcome.status).toBe("completed"));
      expect(checks.length).toBeGreaterThanOrEqual(1);
      expect(hook.result.current.run.outcome).toMatchObject({ decidedElsewhere: true });
      expect(sent).toHaveLength(2);
    } finally {
      await close();
    }
  });

  it("an older card (the chat went on) decided elsewhere is answered with its own message; the newer one still waits", async () => {
    const { ledger, runtime, sent, checks, hook, close } = await setup();
    try {
      const older = hook.result.current.run;
      await act(async () => {
        await hook.result.current.chat.sendMessage({ text: "and again" });
      });
      await waitFor(() => expect(hook.result.current.run.toolCallId).not.toBe(older.toolCallId));
      await waitFor(() => expect(hook.result.current.run.outcome.status).toBe("awaiting-approval"));
      await runtime.approve({ executionId: String(older.executionId) });
      await advance(30_000);
      await waitFor(() => expect(hook.result.current.firstRun.outcome.status).toBe("completed"));
      expect(hook.result.current.firstRun.outcome).toMatchObject({ decidedElsewhere: true });
      // Both cards were asked about; only the older one was answered, with its own message.
      expect(checks.some((check) => check.asked.length === 2)).toBe(true);
      expect(sent).toHaveLength(3);
      const olderMessage = sent[2]?.messages.find((message) =>
        message.parts.some((part) => "toolCallId" in part && part.toolCallId === older.toolCallId),
      );
      expect(sent[2]?.messageId).toBe(olderMessage?.id);
      expect(hook.result.current.run.outcome.status).toBe("awaiting-approval");
      expect(ledger.transfers).toHaveLength(1);
    } finally {
      await close();
    }
  });

  it("without statusApi nothing is checked: the card waits for the person", async () => {
    const { runtime, checks, hook, sent, close } = await setup({});
    try {
      await runtime.approve({ executionId: String(hook.result.current.run.executionId) });
      await advance(5 * 60_000);
      expect(checks).toHaveLength(0);
      expect(sent).toHaveLength(1);
      expect(hook.result.current.run.outcome.status).toBe("awaiting-approval");
    } finally {
      await close();
    }
  });
});
