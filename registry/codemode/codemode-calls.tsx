"use client";

import type { CodemodeRunCall, CodemodeRunView } from "ai-codemode/react";
import { CheckCircle2Icon, CircleDotIcon, ClockIcon, LoaderIcon, RotateCcwIcon, XCircleIcon } from "lucide-react";
import { type ComponentProps, memo, type ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";
import { formatCall } from "./codemode-value";

/** How each call state reads on the card (one vocabulary with the inspector and the CLI). */
const STATE_LABELS: Record<string, string> = {
  executing: "executing",
  applied: "applied",
  replayed: "replayed (ran earlier)",
  pending: "pending approval",
  approved: "approved",
  interrupted: "interrupted",
  rejected: "rejected",
  error: "error",
  reverted: "reverted",
};

const STATE_STYLES: Record<string, { icon: ReactNode; className: string }> = {
  executing: {
    icon: <LoaderIcon aria-hidden className="animate-spin" />,
    className: "text-sky-700 dark:text-sky-300",
  },
  applied: { icon: <CheckCircle2Icon aria-hidden />, className: "text-emerald-700 dark:text-emerald-300" },
  replayed: { icon: <RotateCcwIcon aria-hidden />, className: "text-muted-foreground" },
  pending: { icon: <ClockIcon aria-hidden />, className: "text-amber-700 dark:text-amber-300" },
  approved: { icon: <CheckCircle2Icon aria-hidden />, className: "text-sky-700 dark:text-sky-300" },
  rejected: { icon: <XCircleIcon aria-hidden />, className: "text-destructive" },
  error: { icon: <XCircleIcon aria-hidden />, className: "text-destructive" },
};

/** A call state as a badge: an icon and the state's words (colour is never the only sign). */
export function CodemodeCallState({ state, className }: { state: string; className?: string }) {
  const style = STATE_STYLES[state] ?? { icon: <CircleDotIcon aria-hidden />, className: "text-muted-foreground" };
  return (
    <Badge variant="outline" className={cn("gap-1 rounded-full font-normal", style.className, className)}>
      {style.icon}
      {STATE_LABELS[state] ?? state}
    </Badge>
  );
}

export type CodemodeCallsProps = ComponentProps<"section"> & {
  /** The run (`useCodemodeRun(part)`). */
  run: CodemodeRunView;
  /** Show the console lines (off when the output shows them). */
  showLogs?: boolean;
};

/** One call row; the hook keeps a call's object while it is unchanged, so a long run re-renders only changed rows. */
const CallRow = memo(function CallRow({ call }: { call: CodemodeRunCall }) {
  return (
    <li
      data-testid="progress-call"
      data-state={call.state}
      data-seq={call.seq}
      className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md px-2 py-1 hover:bg-muted/50"
    >
      <span className="w-6 shrink-0 text-right font-mono text-muted-foreground text-xs" aria-hidden>
        {call.seq}
      </span>
      <code className="min-w-0 flex-1 break-all font-mono text-xs">{formatCall(call)}</code>{" "}
      <CodemodeCallState state={call.state} />
      {call.durationMs === undefined ? null : (
        <span className="text-muted-foreground text-xs">{` · ${call.durationMs} ms`}</span>
      )}
      {call.error === undefined ? null : <span className="basis-full pl-8 text-destructive text-xs">{call.error}</span>}
    </li>
  );
});

/** The program's connector calls and console lines: live while it runs, what it did before a pause, kept after. */
export function CodemodeCalls({ run, showLogs = true, className, ...props }: CodemodeCallsProps) {
  const running = run.outcome.status === "running";
  const stopped = run.outcome.status === "rejected";
  const waiting = run.counts.pending > 0;
  const hidden = run.totalCalls - run.calls.length;
  const summary = `${running ? "Running… " : stopped ? "Stopped after " : waiting ? "Paused after " : ""}${
    run.totalCalls
  } call${run.totalCalls === 1 ? "" : "s"}${hidden > 0 ? ` (latest ${run.calls.length} shown)` : ""}`;
  return (
    <section
      data-testid="progress"
      data-running={running}
      aria-label="Calls"
      className={cn("space-y-2 text-sm", className)}
      {...props}
    >
      <h4 className="m-0 font-medium text-muted-foreground text-xs uppercase tracking-wide" aria-live="polite">
        {summary}
      </h4>
      {run.calls.length > 0 ? (
        <ol className="m-0 list-none space-y-1 p-0">
          {run.calls.map((call) => (
            <CallRow key={call.seq} call={call} />
          ))}
        </ol>
      ) : null}
      {showLogs && run.logs.length > 0 ? (
        <pre
          data-testid="progress-logs"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block is reached by keyboard (axe: scrollable-region-focusable)
          tabIndex={0}
          className="m-0 max-h-48 overflow-auto rounded-md bg-muted/50 p-3 font-mono text-muted-foreground text-xs"
        >
          {run.logs.join("\n")}
        </pre>
      ) : null}
    </section>
  );
}
