"use client";

import { type CodemodeDecisions, type CodemodeRunView, useCodemodeRun } from "ai-codemode/react";
import {
  AlertTriangleIcon,
  BanIcon,
  CheckCircle2Icon,
  ChevronDownIcon,
  ClockIcon,
  CodeIcon,
  LoaderIcon,
  TimerOffIcon,
} from "lucide-react";
import { type ComponentProps, createContext, type ReactNode, useContext, useMemo } from "react";
import { Badge } from "@/components/ui/badge";
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from "@/components/ui/collapsible";
import { cn } from "@/lib/utils";
import { CodemodeApproval, type CodemodeApprovalProps } from "./codemode-approval";
import type { CodemodeArgsSchema } from "./codemode-args-form";
import { CodemodeCalls } from "./codemode-calls";
import { CodemodeProgram } from "./codemode-program";
import { CodemodeValue, formatValue } from "./codemode-value";

/** What the run's parts read. */
interface CodemodeRunContextValue {
  /** The part as `useChat` holds it (for what the view does not carry: the part's own state). */
  part: { state?: unknown };
  run: CodemodeRunView;
  decisions: CodemodeDecisions;
  schemas: Record<string, CodemodeArgsSchema | undefined> | undefined;
}

const CodemodeRunContext = createContext<CodemodeRunContextValue | null>(null);

/** The run around a part (throws outside `<CodemodeRun>`). */
export function useCodemodeRunContext(): CodemodeRunContextValue {
  const context = useContext(CodemodeRunContext);
  if (context === null) throw new Error("Codemode run parts must be used inside <CodemodeRun>.");
  return context;
}

export type CodemodeRunProps = Omit<ComponentProps<typeof Collapsible>, "part"> & {
  /** The `tool-codemode` part of a message, as `useChat` holds it. */
  part: object;
  /** `useCodemodeDecisions(chat)`, made once for the chat and given to every run. */
  decisions: CodemodeDecisions;
  /** Input schemas of editable methods (`connector.method` → JSON Schema), when the requests carry none. */
  schemas?: Record<string, CodemodeArgsSchema | undefined>;
  children?: ReactNode;
};

/**
 * One codemode tool call in a chat: its program, its calls as they run, the approval card while it waits, and its
 * outcome. Composable like AI Elements' `Tool`: without children it renders the header, program, calls, approval and
 * output; with children, compose `CodemodeRunHeader`, `CodemodeRunContent`, `CodemodeRunProgram`, `CodemodeRunCalls`,
 * `CodemodeRunApproval` and `CodemodeRunOutput` (or the plain `CodemodeProgram`, `CodemodeCalls`, `CodemodeApproval`
 * with `useCodemodeRunContext()`).
 */
export function CodemodeRun({
  part,
  decisions,
  schemas,
  className,
  children,
  defaultOpen = true,
  ...props
}: CodemodeRunProps) {
  const run = useCodemodeRun(part);
  const value = useMemo<CodemodeRunContextValue>(
    () => ({ part: part as { state?: unknown }, run, decisions, schemas }),
    [part, run, decisions, schemas],
  );
  return (
    <CodemodeRunContext.Provider value={value}>
      <Collapsible
        data-testid="codemode-call"
        data-state={typeof value.part.state === "string" ? value.part.state : undefined}
        data-outcome={run.outcome.status}
        defaultOpen={defaultOpen}
        className={cn("group/run not-prose my-2 w-full rounded-lg border bg-card text-card-foreground", className)}
        {...props}
      >
        {children ?? (
          <>
            <CodemodeRunHeader />
            <CodemodeRunContent>
              <CodemodeRunProgram />
              <CodemodeRunCalls />
              <CodemodeRunApproval />
              <CodemodeRunOutput />
            </CodemodeRunContent>
          </>
        )}
      </Collapsible>
    </CodemodeRunContext.Provider>
  );
}

const SPINNER = <LoaderIcon aria-hidden className="animate-spin" />;

/** The run's state in words, with an icon (colour is never the only sign). */
function runStatus(run: CodemodeRunView): { label: string; icon: ReactNode } {
  const { outcome } = run;
  switch (outcome.status) {
    case "streaming-input":
      return { label: "writing the program", icon: SPINNER };
    case "running":
      return { label: "running", icon: SPINNER };
    case "awaiting-approval":
      return {
        label: "awaiting approval",
        icon: <ClockIcon aria-hidden className="text-amber-600 dark:text-amber-400" />,
      };
    case "answered":
      return { label: outcome.approved ? "approved" : "rejecting", icon: SPINNER };
    case "completed":
      return {
        label: outcome.decidedElsewhere ? "completed (decided elsewhere)" : "completed",
        icon: <CheckCircle2Icon aria-hidden className="text-emerald-600 dark:text-emerald-400" />,
      };
    case "rejected":
      return { label: "rejected", icon: <BanIcon aria-hidden className="text-destructive" /> };
    case "decided-elsewhere":
      return { label: "decided elsewhere", icon: <CheckCircle2Icon aria-hidden /> };
    case "expired":
      return { label: "expired", icon: <TimerOffIcon aria-hidden className="text-destructive" /> };
    default:
      return { label: "failed", icon: <AlertTriangleIcon aria-hidden className="text-destructive" /> };
  }
}

export type CodemodeRunHeaderProps = ComponentProps<typeof CollapsibleTrigger> & { title?: string };

/** The header: what ran and how it stands; it folds the run. */
export function CodemodeRunHeader({ title = "codemode", className, ...props }: CodemodeRunHeaderProps) {
  const { run } = useCodemodeRunContext();
  const status = runStatus(run);
  return (
    <CollapsibleTrigger
      className={cn(
        "flex w-full items-center justify-between gap-4 rounded-lg p-3 text-left outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50",
        className,
      )}
      {...props}
    >
      <span className="flex items-center gap-2">
        <CodeIcon aria-hidden className="size-4 text-muted-foreground" />
        <span className="font-medium text-sm">{title}</span>
        <Badge variant="secondary" data-testid="run-status" className="gap-1.5 rounded-full">
          {status.icon}
          {status.label}
        </Badge>
      </span>
      <ChevronDownIcon
        aria-hidden
        className="size-4 text-muted-foreground transition-transform group-data-[state=open]/run:rotate-180"
      />
    </CollapsibleTrigger>
  );
}

/** The folding body of the run. */
export function CodemodeRunContent({ className, ...props }: ComponentProps<typeof CollapsibleContent>) {
  return <CollapsibleContent className={cn("space-y-4 px-3 pb-3", className)} {...props} />;
}

/** The run's program (from the context). */
export function CodemodeRunProgram(props: Omit<ComponentProps<typeof CodemodeProgram>, "code">) {
  const { run } = useCodemodeRunContext();
  return <CodemodeProgram code={run.code} {...props} />;
}

/** Whether the final output shows the console lines (then the calls do not repeat them). */
function outputShowsLogs(run: CodemodeRunView): boolean {
  return (run.outcome.status === "completed" || run.outcome.status === "error") && run.logs.length > 0;
}

/** The run's calls and console lines (from the context); nothing before any, or when only waiting calls. */
export function CodemodeRunCalls(props: Omit<ComponentProps<typeof CodemodeCalls>, "run">) {
  const { run } = useCodemodeRunContext();
  if (run.totalCalls === 0 && run.logs.length === 0) return null;
  // Waiting on calls with nothing run and nothing logged before them: the approval card lists them alone.
  const onlyWaiting =
    run.outcome.status === "awaiting-approval" && run.counts.pending === run.totalCalls && run.logs.length === 0;
  if (onlyWaiting || (run.totalCalls === 0 && outputShowsLogs(run))) return null;
  return <CodemodeCalls run={run} showLogs={!outputShowsLogs(run)} {...props} />;
}

/** The approval card while the run waits (from the context). */
export function CodemodeRunApproval(props: Omit<CodemodeApprovalProps, "run" | "decisions" | "schemas">) {
  const { run, decisions, schemas } = useCodemodeRunContext();
  if (run.outcome.status !== "awaiting-approval") return null;
  return <CodemodeApproval run={run} decisions={decisions} schemas={schemas} {...props} />;
}

const HEADING = "m-0 font-medium text-muted-foreground text-xs uppercase tracking-wide";

/** The outcome: the answer on its way, the result and logs, the rejection, or why it failed. */
export function CodemodeRunOutput({ className, ...props }: ComponentProps<"div">) {
  const { part, run, decisions } = useCodemodeRunContext();
  const { outcome } = run;
  const answerStatus = run.approvalId === undefined ? undefined : decisions.statusOf(run.approvalId);
  const logs =
    outputShowsLogs(run) && run.logs.length > 0 ? (
      <>
        <h4 className={HEADING}>Console</h4>
        <CodemodeValue data-testid="logs" text={run.logs.join("\n")} label="Console" />
      </>
    ) : null;
  // A tool error (the part failed: a refused or stale answer) reads differently from a program that failed.
  const toolError = part.state === "output-error";
  return (
    <div className={cn("space-y-3 empty:hidden", className)} {...props}>
      {outcome.status === "answered" ? (
        <p data-testid="answered" role="status" className="m-0 text-muted-foreground text-sm">
          {decisions.busy
            ? outcome.approved
              ? "Approved, resuming…"
              : "Rejected, stopping…"
            : answerStatus?.state === "failed"
              ? "Your answer was not delivered (the error is below). Reload the page to see this chat as it is stored."
              : "Answered; waiting for the server…"}
        </p>
      ) : null}
      {outcome.status === "completed" ? (
        <div data-testid="output" data-status="completed" className="space-y-2">
          {outcome.decidedElsewhere ? (
            <p data-testid="decided-elsewhere" role="status" className="m-0 text-muted-foreground text-sm">
              Decided elsewhere (the inspector, another device or an approval link); this is the stored outcome.
            </p>
          ) : null}
          {logs}
          <h4 className={HEADING}>Result</h4>
          <CodemodeValue data-testid="result" text={formatValue(outcome.result)} label="Result" />
        </div>
      ) : null}
      {outcome.status === "error" && !toolError ? (
        <div data-testid="output" data-status="error" className="space-y-2">
          {logs}
          <p role="alert" className="m-0 rounded-md border border-destructive/50 p-3 text-destructive text-sm">
            {outcome.kind ?? "error"}: {outcome.error}
          </p>
        </div>
      ) : null}
      {outcome.status === "rejected" ? (
        <p data-testid="denied" className="m-0 rounded-md border border-destructive/50 p-3 text-destructive text-sm">
          Rejected: {outcome.reason ?? "not approved"}
        </p>
      ) : null}
      {(outcome.status === "error" && toolError) ||
      outcome.status === "decided-elsewhere" ||
      outcome.status === "expired" ? (
        <div
          role="alert"
          data-testid="run-failure"
          data-kind={outcome.status === "error" ? "failed" : outcome.status}
          className={cn(
            "flex items-start gap-2 rounded-md p-3 text-sm",
            outcome.status === "decided-elsewhere"
              ? "bg-muted text-foreground"
              : "border border-destructive/50 text-destructive",
          )}
        >
          {outcome.status === "expired" ? (
            <TimerOffIcon aria-hidden className="mt-0.5 size-4 shrink-0" />
          ) : (
            <AlertTriangleIcon aria-hidden className="mt-0.5 size-4 shrink-0" />
          )}
          <div>
            <div className="font-medium">
              {outcome.status === "expired"
                ? "Expired: nobody decided in time"
                : outcome.status === "decided-elsewhere"
                  ? "Decided elsewhere"
                  : "The answer failed"}
            </div>
            <span data-testid="tool-error">{outcome.error}</span>
          </div>
        </div>
      ) : null}
    </div>
  );
}
