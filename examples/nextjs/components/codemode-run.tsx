"use client";

import { type CodemodeApprovalDescriptor, type CodemodePartProgress, readCodemodeProgress } from "ai-codemode/ui";
import {
  AlertTriangleIcon,
  BanIcon,
  CheckCircle2Icon,
  ChevronDownIcon,
  ClockIcon,
  CodeIcon,
  LoaderIcon,
} from "lucide-react";
import { type ComponentProps, createContext, type ReactNode, useContext, useMemo } from "react";
import { Badge } from "@/components/ui/badge";
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from "@/components/ui/collapsible";
import { cn } from "@/lib/utils";
import {
  CodemodeApproval,
  type CodemodeApprovalDecision,
  type CodemodeApprovalProps,
  type CodemodeApprovalState,
} from "./codemode-approval";
import type { CodemodeArgsSchema } from "./codemode-args-form";
import { CodemodeCalls } from "./codemode-calls";
import { CodemodeProgram } from "./codemode-program";
import { CodemodeValue, formatValue } from "./codemode-value";

/** A `tool-codemode` part as `useChat` holds it. */
export interface CodemodeToolPart {
  type: string;
  toolCallId: string;
  state: string;
  input?: { code?: string } | unknown;
  output?: unknown;
  errorText?: string;
  preliminary?: boolean;
  approval?: { id: string; approved?: boolean; reason?: string; descriptor?: unknown };
}

/** A codemode final output (`completed`, `error`, `rejected`, `rolled_back`). */
interface CodemodeFinalOutput {
  status: string;
  result?: unknown;
  logs?: string[];
  error?: string;
  kind?: string;
}

/** What the run's parts read. */
interface CodemodeRunContextValue {
  part: CodemodeToolPart;
  code: string;
  progress: CodemodePartProgress | undefined;
  output: CodemodeFinalOutput | undefined;
  descriptor: CodemodeApprovalDescriptor | undefined;
  busy: boolean;
  failed: boolean;
  approvalState: CodemodeApprovalState | undefined;
  schemas: Record<string, CodemodeArgsSchema | undefined> | undefined;
  decide: (decision: CodemodeApprovalDecision) => void | Promise<void>;
}

const CodemodeRunContext = createContext<CodemodeRunContextValue | null>(null);

/** The run around a part (throws outside `<CodemodeRun>`). */
export function useCodemodeRunContext(): CodemodeRunContextValue {
  const context = useContext(CodemodeRunContext);
  if (context === null) throw new Error("Codemode run parts must be used inside <CodemodeRun>.");
  return context;
}

export type CodemodeRunProps = Omit<ComponentProps<typeof Collapsible>, "onChange" | "part"> & {
  /** The `tool-codemode` part of a message. */
  part: CodemodeToolPart;
  /** A request is on its way (`status` is `submitted` or `streaming`): answers wait for it. */
  busy?: boolean;
  /** The last request failed (its error is shown by the chat). */
  failed?: boolean;
  /** Where the approval stands when the app knows better than the part (decided elsewhere, expired). */
  approvalState?: CodemodeApprovalState;
  /** Input schemas of editable methods (`connector.method` → JSON Schema) for the edit form. */
  schemas?: Record<string, CodemodeArgsSchema | undefined>;
  /** Sends a decision on this part's approval (e.g. `addToolApprovalResponse`). */
  onDecide?: (decision: CodemodeApprovalDecision & { approvalId: string }) => void | Promise<void>;
  children?: ReactNode;
};

function isFinalOutput(value: unknown): value is CodemodeFinalOutput {
  return typeof value === "object" && value !== null && typeof (value as { status?: unknown }).status === "string";
}

/**
 * One codemode tool call in a chat: its program, its calls as they run, the approval card while it waits, and its
 * outcome. Composable like AI Elements' `Tool`: without children it renders the header, program, calls, approval and
 * output; with children, compose `CodemodeRunHeader`, `CodemodeRunContent`, `CodemodeRunProgram`, `CodemodeRunCalls`,
 * `CodemodeRunApproval` and `CodemodeRunOutput` (or the plain `CodemodeProgram`, `CodemodeCalls`, `CodemodeApproval`).
 */
export function CodemodeRun({
  part,
  busy = false,
  failed = false,
  approvalState,
  schemas,
  onDecide,
  className,
  children,
  defaultOpen = true,
  ...props
}: CodemodeRunProps) {
  const value = useMemo<CodemodeRunContextValue>(() => {
    const progress = readCodemodeProgress(part);
    const code =
      typeof part.input === "object" && part.input !== null ? ((part.input as { code?: string }).code ?? "") : "";
    const output =
      part.state === "output-available" && progress?.running !== true && isFinalOutput(part.output)
        ? part.output
        : undefined;
    const descriptor = part.approval?.descriptor as CodemodeApprovalDescriptor | undefined;
    const approvalId = part.approval?.id;
    return {
      part,
      code,
      progress,
      output,
      descriptor,
      busy,
      failed,
      approvalState,
      schemas,
      decide: (decision) =>
        approvalId === undefined || onDecide === undefined ? undefined : onDecide({ ...decision, approvalId }),
    };
  }, [part, busy, failed, approvalState, schemas, onDecide]);
  return (
    <CodemodeRunContext.Provider value={value}>
      <Collapsible
        data-testid="codemode-call"
        data-state={part.state}
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

/** The run's state in words, with an icon (colour is never the only sign). */
function runStatus(context: CodemodeRunContextValue): { label: string; icon: ReactNode } {
  const { part, progress, output } = context;
  if (progress?.running) return { label: "running", icon: <LoaderIcon aria-hidden className="animate-spin" /> };
  switch (part.state) {
    case "input-streaming":
      return { label: "writing the program", icon: <LoaderIcon aria-hidden className="animate-spin" /> };
    case "input-available":
      return { label: "running", icon: <LoaderIcon aria-hidden className="animate-spin" /> };
    case "approval-requested":
      return {
        label: "awaiting approval",
        icon: <ClockIcon aria-hidden className="text-amber-600 dark:text-amber-400" />,
      };
    case "approval-responded":
      return { label: "answered", icon: <ClockIcon aria-hidden /> };
    case "output-denied":
      return { label: "rejected", icon: <BanIcon aria-hidden className="text-destructive" /> };
    case "output-error":
      return { label: "failed", icon: <AlertTriangleIcon aria-hidden className="text-destructive" /> };
    default:
      return output?.status === "completed"
        ? {
            label: "completed",
            icon: <CheckCircle2Icon aria-hidden className="text-emerald-600 dark:text-emerald-400" />,
          }
        : { label: output?.status ?? part.state, icon: <AlertTriangleIcon aria-hidden className="text-destructive" /> };
  }
}

export type CodemodeRunHeaderProps = ComponentProps<typeof CollapsibleTrigger> & { title?: string };

/** The header: what ran and its state; it folds the run. */
export function CodemodeRunHeader({ title = "codemode", className, ...props }: CodemodeRunHeaderProps) {
  const context = useCodemodeRunContext();
  const status = runStatus(context);
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
  const { code } = useCodemodeRunContext();
  return <CodemodeProgram code={code} {...props} />;
}

/** The run's calls and console lines (from the context); nothing when a program waits with nothing run. */
export function CodemodeRunCalls(props: Omit<ComponentProps<typeof CodemodeCalls>, "progress" | "running">) {
  const { part, progress, output } = useCodemodeRunContext();
  if (progress === undefined) return null;
  // Waiting on calls with nothing run and nothing logged before them: the approval card lists them alone.
  const onlyWaiting =
    part.state === "approval-requested" &&
    progress.progress.counts.pending === progress.progress.totalCalls &&
    progress.progress.logs.length === 0;
  if (onlyWaiting) return null;
  return (
    <CodemodeCalls
      progress={progress.progress}
      running={progress.running}
      // The logs once: here until the final output shows them.
      showLogs={!(output?.logs && output.logs.length > 0)}
      stopped={part.state === "output-denied"}
      {...props}
    />
  );
}

/** The approval card while the part waits (from the context). */
export function CodemodeRunApproval(
  props: Omit<CodemodeApprovalProps, "descriptor" | "approvalId" | "onDecide" | "code" | "progress" | "busy">,
) {
  const { part, code, progress, descriptor, busy, approvalState, schemas, decide } = useCodemodeRunContext();
  if (part.state !== "approval-requested" || descriptor === undefined || part.approval === undefined) return null;
  return (
    <CodemodeApproval
      descriptor={descriptor}
      approvalId={part.approval.id}
      code={code}
      progress={progress?.progress}
      busy={busy}
      state={approvalState}
      schemas={schemas}
      onDecide={decide}
      {...props}
    />
  );
}

/** Why a failed part failed, in the card's words. */
function failureKind(errorText: string | undefined): CodemodeApprovalState {
  if (errorText === undefined) return "failed";
  if (/\bexpired?\b/i.test(errorText)) return "expired";
  if (/\bis stale\b|\balready answered\b/i.test(errorText)) return "decided-elsewhere";
  return "failed";
}

/** The outcome: the answer on its way, the result and logs, the rejection, or the error. */
export function CodemodeRunOutput({ className, ...props }: ComponentProps<"div">) {
  const { part, output, busy, failed } = useCodemodeRunContext();
  return (
    <div className={cn("space-y-3 empty:hidden", className)} {...props}>
      {part.state === "approval-responded" ? (
        <p data-testid="answered" role="status" className="m-0 text-muted-foreground text-sm">
          {busy
            ? part.approval?.approved
              ? "Approved, resuming…"
              : "Rejected, stopping…"
            : failed
              ? "Your answer was not delivered (the error is below). Reload the page to see this chat as it is stored."
              : "Answered; waiting for the server…"}
        </p>
      ) : null}
      {output ? (
        <div data-testid="output" data-status={output.status} className="space-y-2">
          {output.logs && output.logs.length > 0 ? (
            <>
              <h4 className="m-0 font-medium text-muted-foreground text-xs uppercase tracking-wide">Console</h4>
              <CodemodeValue data-testid="logs" text={output.logs.join("\n")} label="Console" />
            </>
          ) : null}
          {output.status === "completed" ? (
            <>
              <h4 className="m-0 font-medium text-muted-foreground text-xs uppercase tracking-wide">Result</h4>
              <CodemodeValue data-testid="result" text={formatValue(output.result)} label="Result" />
            </>
          ) : (
            <p role="alert" className="m-0 rounded-md bg-destructive/10 p-3 text-destructive text-sm">
              {output.kind}: {output.error}
            </p>
          )}
        </div>
      ) : null}
      {part.state === "output-denied" ? (
        <p data-testid="denied" className="m-0 rounded-md bg-destructive/10 p-3 text-destructive text-sm">
          Rejected: {part.approval?.reason ?? "not approved"}
        </p>
      ) : null}
      {part.state === "output-error" ? (
        <div
          role="alert"
          data-kind={failureKind(part.errorText)}
          className="flex items-start gap-2 rounded-md bg-destructive/10 p-3 text-destructive text-sm"
        >
          <AlertTriangleIcon aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span data-testid="tool-error">{part.errorText}</span>
        </div>
      ) : null}
    </div>
  );
}
