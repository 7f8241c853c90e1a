"use client";

import {
  type CodemodeApprovalCall,
  type CodemodeApprovalDescriptor,
  type CodemodeProgress,
  encodeCodemodeDecisions,
} from "ai-codemode/ui";
import { AlertTriangleIcon, CheckIcon, ShieldQuestionIcon, TimerOffIcon, XIcon } from "lucide-react";
import { type ComponentProps, type ReactNode, useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { type CodemodeArgsEdit, CodemodeArgsForm, type CodemodeArgsSchema } from "./codemode-args-form";
import { CodemodeValue, formatCall, formatValue } from "./codemode-value";

/**
 * Where an approval stands: the person decides; it was decided elsewhere (the inspector, another device, an
 * approval link); it expired (the paused run was rejected for age); or delivering the decision failed.
 */
export type CodemodeApprovalState = "deciding" | "decided-elsewhere" | "expired" | "failed";

/** A decision as the card sends it: approve or reject; `reason` carries the per-call decisions and edits. */
export interface CodemodeApprovalDecision {
  approved: boolean;
  reason?: string;
}

const WAIT_FOR_REPLY = "Wait for the current reply to finish before answering.";

export type CodemodeApprovalProps = Omit<ComponentProps<"section">, "onChange"> & {
  /** `part.approval.descriptor` of the codemode tool part. */
  descriptor: CodemodeApprovalDescriptor;
  /** `part.approval.id`. */
  approvalId: string;
  /** The program shown above the card (the card repeats a program to approve only when it differs). */
  code?: string;
  /** What the paused pass had done (for "already ran"). */
  progress?: CodemodeProgress;
  /** A request is on its way: answers wait for it. */
  busy?: boolean;
  /** Where the approval stands (default: the person decides). */
  state?: CodemodeApprovalState;
  /** What to say in the `failed`, `expired` and `decided-elsewhere` states (the error text, who decided). */
  detail?: ReactNode;
  /** The input schema of the pending call (`connector.method` → schema), for the edit form. */
  schemas?: Record<string, CodemodeArgsSchema | undefined>;
  onDecide: (decision: CodemodeApprovalDecision) => void | Promise<void>;
};

const STATE_NOTES: Record<Exclude<CodemodeApprovalState, "deciding">, { icon: ReactNode; title: string }> = {
  "decided-elsewhere": { icon: <CheckIcon aria-hidden />, title: "Decided elsewhere" },
  expired: { icon: <TimerOffIcon aria-hidden />, title: "Expired" },
  failed: { icon: <AlertTriangleIcon aria-hidden />, title: "The decision failed" },
};

/** The input schema of a call: given by the app, or carried on the descriptor. */
function schemaOf(
  schemas: CodemodeApprovalProps["schemas"],
  call: { connector: string; method: string },
  carried?: unknown,
): CodemodeArgsSchema | undefined {
  const given = schemas?.[`${call.connector}.${call.method}`];
  if (given !== undefined) return given;
  return typeof carried === "object" && carried !== null ? (carried as CodemodeArgsSchema) : undefined;
}

/**
 * The approval card of a paused codemode program: the whole program before it runs, one call (with every argument,
 * long ones folded, and an edit form where the method is `editable`), or several calls of a `Promise.all` decided
 * one by one. Says what already ran; shows when the approval was decided elsewhere, expired or failed.
 */
export function CodemodeApproval({
  descriptor,
  approvalId,
  code,
  progress,
  busy = false,
  state = "deciding",
  detail,
  schemas,
  onDecide,
  className,
  ...props
}: CodemodeApprovalProps) {
  const isProgram = descriptor.connector === "codemode" && descriptor.method === "program";
  const programCode = isProgram ? ((descriptor.args as { code?: string }).code ?? "") : "";
  const snapshot = progress ?? descriptor.progress;
  const ran = snapshot === undefined ? 0 : snapshot.counts.applied + snapshot.counts.replayed;
  const [edit, setEdit] = useState<CodemodeArgsEdit>({ changed: false });
  const titleId = useId();
  const deciding = state === "deciding";
  const approve = () => {
    if (!edit.changed) return onDecide({ approved: true });
    if ("error" in edit) return;
    // The edit travels under this call's own approval id; the server checks the method is editable and the arguments valid.
    return onDecide({
      approved: true,
      reason: encodeCodemodeDecisions({ [approvalId]: { approved: true, args: edit.args } }),
    });
  };
  const note = state === "deciding" ? undefined : STATE_NOTES[state];
  return (
    <section
      data-testid="approval"
      data-state={state}
      data-approval-id={approvalId}
      aria-labelledby={titleId}
      className={cn(
        "space-y-3 rounded-lg border border-amber-500/60 bg-amber-500/5 p-4 text-card-foreground shadow-xs",
        !deciding && "border-border bg-muted/30",
        className,
      )}
      {...props}
    >
      {isProgram ? (
        <>
          <h4 id={titleId} className="m-0 flex flex-wrap items-center gap-2 font-medium text-sm">
            Run the program above? Nothing has run yet.{" "}
            <code data-testid="approval-call" className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
              codemode.program
            </code>
          </h4>
          {/* The code to approve is the code above; shown again only if it were not. */}
          {programCode === code ? null : (
            <>
              <p className="m-0 text-destructive text-sm">
                The program waiting for approval differs from the one shown above:
              </p>
              <CodemodeValue data-testid="approval-program" text={programCode} label="The program to approve" />
            </>
          )}
        </>
      ) : descriptor.calls ? (
        <h4 id={titleId} className="m-0 flex items-center gap-2 font-medium text-sm">
          <ShieldQuestionIcon aria-hidden className="size-4 text-amber-600 dark:text-amber-400" />
          {descriptor.calls.length} calls wait for approval (unanswered ones stay pending):
        </h4>
      ) : (
        <>
          <h4 id={titleId} className="m-0 flex flex-wrap items-center gap-2 font-medium text-sm">
            <ShieldQuestionIcon aria-hidden className="size-4 text-amber-600 dark:text-amber-400" />
            <span>
              Approve{" "}
              <code data-testid="approval-call" className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
                {`${descriptor.connector}.${descriptor.method}`}
              </code>
              ?
            </span>
            {descriptor.editable ? <Badge variant="secondary">editable</Badge> : null}
          </h4>
          {descriptor.request ? (
            <p className="m-0 break-all font-mono text-muted-foreground text-xs">
              {descriptor.request.method} {descriptor.request.url}
            </p>
          ) : null}
          {descriptor.editable && deciding ? (
            <CodemodeArgsForm
              key={approvalId}
              args={descriptor.args}
              schema={schemaOf(schemas, descriptor, (descriptor as { inputSchema?: unknown }).inputSchema)}
              busy={busy}
              onEdit={setEdit}
            />
          ) : (
            <CodemodeValue data-testid="approval-args" text={formatValue(descriptor.args)} label="Arguments" />
          )}
          {edit.changed && "args" in edit ? (
            <p data-testid="approval-args-original" className="m-0 text-muted-foreground text-xs">
              The program asked for {JSON.stringify(descriptor.args)}; the call will run with the arguments above.
            </p>
          ) : null}
        </>
      )}
      {descriptor.calls ? (
        <CodemodeDecisions
          approvalId={approvalId}
          calls={descriptor.calls}
          busy={busy || !deciding}
          onDecide={onDecide}
          showButtons={deciding}
        />
      ) : null}
      {ran > 0 ? (
        <p data-testid="already-ran" className="m-0 text-sm">
          This execution already ran {ran} call{ran === 1 ? "" : "s"} (listed above). Rejecting stops the program; it
          does not undo them.
        </p>
      ) : null}
      <p className="m-0 text-muted-foreground text-xs">
        execution {descriptor.executionId} ·{" "}
        {isProgram
          ? "the whole program, before it runs"
          : descriptor.calls
            ? `calls ${descriptor.calls.map((call) => call.seq).join(", ")}`
            : `call ${descriptor.seq}`}
      </p>
      {note ? (
        <div
          role="status"
          data-testid={`approval-${state}`}
          className={cn(
            "flex items-start gap-2 rounded-md border p-3 text-sm [&>svg]:mt-0.5 [&>svg]:size-4 [&>svg]:shrink-0",
            state === "failed" ? "border-destructive/50 text-destructive" : "text-muted-foreground",
          )}
        >
          {note.icon}
          <div>
            <div className="font-medium">{note.title}</div>
            {detail ? <div>{detail}</div> : null}
          </div>
        </div>
      ) : null}
      {deciding && !descriptor.calls ? (
        <div className="flex flex-wrap items-center gap-2">
          <Button
            type="button"
            data-testid="approve"
            disabled={busy || (edit.changed && "error" in edit)}
            onClick={() => void approve()}
          >
            {isProgram ? "Approve and run the program" : edit.changed ? "Approve with these arguments" : "Approve"}
          </Button>
          <Button
            type="button"
            variant="outline"
            data-testid="reject"
            disabled={busy}
            onClick={() => void onDecide({ approved: false })}
          >
            {isProgram ? "Reject the program" : "Reject and stop the program"}
          </Button>
          {busy ? <WaitNote /> : null}
        </div>
      ) : null}
    </section>
  );
}

function WaitNote() {
  return (
    <span data-testid="approval-disabled-reason" className="text-muted-foreground text-xs">
      {WAIT_FOR_REPLY}
    </span>
  );
}

/** Several pending calls: approve all, reject all, or decide each, answered in one request. */
function CodemodeDecisions({
  approvalId,
  calls,
  busy,
  showButtons,
  onDecide,
}: {
  approvalId: string;
  calls: CodemodeApprovalCall[];
  busy: boolean;
  showButtons: boolean;
  onDecide: CodemodeApprovalProps["onDecide"];
}) {
  const [chosen, setChosen] = useState<Record<string, boolean>>({});
  const send = (decisions: Record<string, boolean>) =>
    void onDecide({ approved: true, reason: encodeCodemodeDecisions(decisions) });
  const all = (approved: boolean) => Object.fromEntries(calls.map((call) => [call.approvalId, approved]));
  return (
    <div data-testid="decisions" data-approval-id={approvalId} className="space-y-2">
      <ul className="m-0 list-none space-y-2 p-0">
        {calls.map((call) => {
          const label = formatCall(call);
          return (
            <li
              key={call.approvalId}
              data-testid="decision"
              data-seq={call.seq}
              data-choice={
                chosen[call.approvalId] === undefined ? "none" : chosen[call.approvalId] ? "approve" : "reject"
              }
              className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border bg-background p-2"
            >
              <code className="min-w-0 flex-1 break-all font-mono text-xs">{label}</code>
              <div
                role="radiogroup"
                aria-label={`Decision for call ${call.seq}, ${call.connector}.${call.method}`}
                className="flex gap-3 text-sm"
              >
                {[true, false].map((approved) => (
                  <label key={String(approved)} className="flex items-center gap-1.5">
                    <input
                      type="radio"
                      data-testid={approved ? "decide-approve" : "decide-reject"}
                      name={call.approvalId}
                      disabled={busy}
                      checked={chosen[call.approvalId] === approved}
                      onChange={() => setChosen({ ...chosen, [call.approvalId]: approved })}
                      className="size-4 accent-primary"
                    />
                    {approved ? "approve" : "reject (the program gets an error)"}
                  </label>
                ))}
              </div>
            </li>
          );
        })}
      </ul>
      {showButtons ? (
        <div className="flex flex-wrap items-center gap-2">
          <Button type="button" data-testid="approve-all" disabled={busy} onClick={() => send(all(true))}>
            Approve all {calls.length}
          </Button>
          <Button
            type="button"
            variant="outline"
            data-testid="reject-all"
            disabled={busy}
            onClick={() => send(all(false))}
          >
            Reject all (the program gets errors)
          </Button>
          <Button
            type="button"
            variant="secondary"
            data-testid="submit-decisions"
            disabled={busy || Object.keys(chosen).length === 0}
            onClick={() => send(chosen)}
          >
            Submit decisions
          </Button>
          <Button
            type="button"
            variant="ghost"
            data-testid="reject"
            disabled={busy}
            onClick={() => void onDecide({ approved: false })}
          >
            <XIcon aria-hidden />
            Stop the program
          </Button>
          {busy ? <WaitNote /> : null}
        </div>
      ) : null}
    </div>
  );
}
