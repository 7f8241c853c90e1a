"use client";

import type { CodemodeDecisionStatus, CodemodeDecisions, CodemodeRunView } from "ai-codemode/react";
import { useMemo, useState } from "react";
import { CodemodeRun } from "@/components/codemode-run";
import { Button } from "@/components/ui/button";

const PROGRESS = (calls: object[], logs: string[] = []) => ({
  status: "running",
  executionId: "ex_gallery",
  calls,
  totalCalls: calls.length,
  counts: {
    executing: calls.filter((call) => (call as { state: string }).state === "executing").length,
    applied: calls.filter((call) => (call as { state: string }).state === "applied").length,
    replayed: calls.filter((call) => (call as { state: string }).state === "replayed").length,
    pending: calls.filter((call) => (call as { state: string }).state === "pending").length,
    approved: 0,
    rejected: 0,
    error: 0,
    reverted: 0,
    interrupted: 0,
  },
  logs,
  totalLogs: logs.length,
});

const LONG_BODY = `${"This release notes paragraph is long. ".repeat(60)}END-OF-BODY`;

/** One part per state the components show. */
const PARTS: Record<string, object> = {
  running: {
    type: "tool-codemode",
    toolCallId: "tc_running",
    state: "output-available",
    preliminary: true,
    input: {
      code: 'const prs = await github.list_pull_requests({ repo: "acme/web" });\nfor (const pr of prs) console.log(pr.number);',
    },
    output: PROGRESS(
      [
        {
          seq: 1,
          connector: "github",
          method: "list_pull_requests",
          args: { repo: "acme/web" },
          state: "applied",
          durationMs: 12,
        },
        { seq: 2, connector: "github", method: "get_checks", args: { number: 42 }, state: "executing" },
      ],
      ["#42: checks passing"],
    ),
  },
  "long-args": {
    type: "tool-codemode",
    toolCallId: "tc_long",
    state: "approval-requested",
    input: { code: 'await github.create_release({ tag: "v2.0.0", body });' },
    approval: {
      id: "ap_long",
      descriptor: {
        connector: "github",
        method: "create_release",
        args: { tag: "v2.0.0", body: LONG_BODY },
        executionId: "ex_long",
        seq: 1,
      },
    },
  },
  "edit-form": {
    type: "tool-codemode",
    toolCallId: "tc_edit",
    state: "approval-requested",
    input: {
      code: 'await issues.create_issue({ title: "Flaky test", priority: "low", draft: false, labels: ["ci"], count: 1 });',
    },
    approval: {
      id: "ap_edit",
      descriptor: {
        connector: "issues",
        method: "create_issue",
        args: { title: "Flaky test", priority: "low", draft: false, labels: ["ci"], count: 1 },
        executionId: "ex_edit",
        seq: 1,
        editable: true,
        inputSchema: {
          type: "object",
          properties: {
            title: { type: "string", description: "One line." },
            priority: { type: "string", enum: ["low", "medium", "high"] },
            draft: { type: "boolean" },
            labels: { type: "array", items: { type: "string" } },
            count: { type: "integer" },
          },
          required: ["title", "count"],
        },
      },
    },
  },
  program: {
    type: "tool-codemode",
    toolCallId: "tc_program",
    state: "approval-requested",
    input: { code: "await github.close_pull_request({ number: 7 }); // stale" },
    approval: {
      id: "ap_program",
      descriptor: {
        connector: "codemode",
        method: "program",
        args: { code: "await github.close_pull_request({ number: 7 }); // stale" },
        executionId: "ex_program",
        seq: 0,
      },
    },
  },
  several: {
    type: "tool-codemode",
    toolCallId: "tc_several",
    state: "approval-requested",
    input: { code: "await Promise.all([42, 43, 44].map((number) => github.merge_pull_request({ number })));" },
    approval: {
      id: "ap_s1",
      descriptor: {
        connector: "github",
        method: "merge_pull_request",
        args: { number: 42 },
        executionId: "ex_several",
        seq: 1,
        calls: [42, 43, 44].map((number, index) => ({
          seq: index + 1,
          connector: "github",
          method: "merge_pull_request",
          args: { number },
          approvalId: `ap_s${index + 1}`,
          // The third call's method is editable: the card offers its form.
          ...(index === 2
            ? { editable: true, inputSchema: { type: "object", properties: { number: { type: "integer" } } } }
            : {}),
        })),
      },
    },
  },
  failed: {
    type: "tool-codemode",
    toolCallId: "tc_failed",
    state: "approval-requested",
    input: { code: "await github.delete_branch({ name: 'old' });" },
    approval: {
      id: "ap_failed",
      descriptor: {
        connector: "github",
        method: "delete_branch",
        args: { name: "old" },
        executionId: "ex_failed",
        seq: 1,
      },
    },
  },
  expired: {
    type: "tool-codemode",
    toolCallId: "tc_expired",
    state: "output-error",
    input: { code: "await github.merge_pull_request({ number: 9 });" },
    errorText:
      'Approval id "ap_expired" is stale: execution ex_expired is rejected (it expired: nobody decided in time). Nothing was run.',
  },
  elsewhere: {
    type: "tool-codemode",
    toolCallId: "tc_elsewhere",
    state: "output-available",
    input: { code: "await github.merge_pull_request({ number: 11 });" },
    output: {
      status: "completed",
      result: { merged: true, sha: "c0ffee11" },
      decidedElsewhere: true,
      progress: {
        ...PROGRESS([
          {
            seq: 1,
            connector: "github",
            method: "merge_pull_request",
            args: { number: 11 },
            state: "applied",
            durationMs: 30,
          },
        ]),
        status: "completed",
      },
    },
  },
};

/** The failure a decision on the `failed` card meets, as `useCodemodeDecisions` reports a refused answer. */
const FAILED: CodemodeDecisionStatus = {
  state: "failed",
  approved: true,
  message: "The server refused the answer: the approval has an invalid signature. Nothing was run.",
  expired: false,
};

/** Decisions that are recorded on the page instead of sent (the chat page sends them through useChat). */
function useRecordedDecisions(): { decisions: CodemodeDecisions; log: string[] } {
  const [log, setLog] = useState<string[]>([]);
  const decisions = useMemo<CodemodeDecisions>(() => {
    const record = (entry: object) => {
      setLog((current) => [...current, JSON.stringify(entry)]);
      return Promise.resolve();
    };
    return {
      approve: (run: CodemodeRunView, options = {}) => record({ approve: run.approvalId, ...options }),
      reject: (run: CodemodeRunView, options = {}) => record({ reject: run.approvalId, ...options }),
      decide: (run: CodemodeRunView, choice) => record({ decide: run.approvalId, choice }),
      statusOf: (approvalId: string) => (approvalId === "ap_failed" ? FAILED : { state: "idle" }),
      busy: false,
      waitReason: undefined,
    };
  }, []);
  return { decisions, log };
}

export function Gallery() {
  const { decisions, log } = useRecordedDecisions();
  return (
    <main className="mx-auto max-w-3xl space-y-6 px-4 py-6">
      <div className="flex items-center justify-between gap-4">
        <h1 className="m-0 font-semibold text-xl">Codemode components</h1>
        <Button
          type="button"
          variant="outline"
          size="sm"
          data-testid="theme-toggle"
          onClick={() => document.documentElement.classList.toggle("dark")}
        >
          Toggle dark theme
        </Button>
      </div>
      <p className="text-muted-foreground text-sm">
        The components installed from the ai-codemode package (<code>shadcn add</code>), each state with a fixed part.
        Decisions made here are listed below instead of being sent.
      </p>
      {Object.entries(PARTS).map(([name, part]) => (
        <section key={name} id={name} aria-label={name} data-testid={`gallery-${name}`}>
          <h2 className="mb-1 font-mono text-muted-foreground text-xs">{name}</h2>
          <CodemodeRun part={part} decisions={decisions} />
        </section>
      ))}
      <section aria-label="Decisions made on this page">
        <h2 className="mb-1 font-medium text-sm">Decisions made on this page</h2>
        <pre data-testid="decisions-log" className="m-0 rounded-md bg-muted p-3 font-mono text-xs">
          {log.join("\n")}
        </pre>
      </section>
    </main>
  );
}
