"use client";

import type { CodemodeDecision, CodemodeDecisions, CodemodePendingCall, CodemodeRunView } from "ai-codemode/react";
import { AlertTriangleIcon, CheckIcon, ShieldQuestionIcon, TimerOffIcon, XIcon } from "lucide-react";
import { type ComponentProps, type ReactNode, useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { type CodemodeArgsEdit, CodemodeArgsForm, type CodemodeArgsSchema } from "./codemode-args-form";
import { CodemodeValue, formatCall, formatValue } from "./codemode-value";

/**
 * Where the approval stands on this card: the person decides (or the answer is on its way); someone decided it
 * elsewhere first (the inspector, another device, an approval link); it expired (the paused run was ended for
 * age); or the decision failed (the reason is shown, and the person may try again).
 */
export type CodemodeApprovalState = "deciding" | "decided-elsewhere" | "expired" | "failed";

export type CodemodeApprovalProps = ComponentProps<"section"> & {
  /** The run (`useCodemodeRun(part)`); the card shows while `run.pending` has calls. */
  run: CodemodeRunView;
  /** `useCodemodeDecisions(chat)`: approves, edits and rejects through `useChat`. */
  decisions: CodemodeDecisions;
  /** Input schemas by `connector.method`, for an edit form when the request carries none. */
  schemas?: Record<string, CodemodeArgsSchema | undefined>;
};

const STATE_NOTES: Record<Exclude<CodemodeApprovalState, "deciding">, { icon: ReactNode; title: string }> = {
  "decided-elsewhere": { icon: <CheckIcon aria-hidden />, title: "Decided elsewhere" },
  expired: { icon: <TimerOffIcon aria-hidden />, title: "Expired" },
  failed: { icon: <AlertTriangleIcon aria-hidden />, title: "The decision failed" },
};

/** The input schema of a call: carried by the request, or given by the app. */
function schemaOf(
  call: CodemodePendingCall,
  schemas: CodemodeApprovalProps["schemas"],
): CodemodeArgsSchema | undefined {
  return (call.inputSchema as CodemodeArgsSchema | undefined) ?? schemas?.[`${call.connector}.${call.method}`];
}

/**
 * The approval card of a paused codemode program: the whole program before it runs, one call (with every argument,
 * long ones folded, and an edit form where the method is `editable`), or several calls of a `Promise.all` decided
 * one by one. Says what already ran; shows when the approval was decided elsewhere, expired or failed.
 */
export function CodemodeApproval({ run, decisions, schemas, className, ...props }: CodemodeApprovalProps) {
  const [edit, setEdit] = useState<CodemodeArgsEdit>({ changed: false });
  const titleId = useId();
  const first = run.pending[0];
  if (first === undefined || run.approvalId === undefined) return null;
  const several = run.pending.length > 1;
  const isProgram = first.program;
  const programCode = isProgram ? ((first.args as { code?: string } | undefined)?.code ?? "") : "";
  const ran = run.counts.applied + run.counts.replayed;
  const status = decisions.statusOf(run.approvalId);
  const state: CodemodeApprovalState =
    status.state === "failed"
      ? status.expired
        ? "expired"
        : "failed"
      : status.state === "decided" && status.elsewhere
        ? "decided-elsewhere"
        : "deciding";
  const open = state === "deciding" || state === "failed";
  const busy = decisions.busy || status.state === "deciding";
  const approve = () => {
    if (!edit.changed) return decisions.approve(run);
    if ("error" in edit) return;
    // The edit travels under this call's own approval id; the server checks the method is editable and the arguments valid.
    return decisions.approve(run, { args: edit.args });
  };
  const note = state === "deciding" ? undefined : STATE_NOTES[state];
  return (
    <section
      data-testid="approval"
      data-state={status.state === "deciding" ? "sending" : state}
      data-approval-id={run.approvalId}
      aria-labelledby={titleId}
      aria-busy={status.state === "deciding"}
      className={cn(
        "space-y-3 rounded-lg border border-amber-500/60 bg-amber-500/5 p-4 text-card-foreground shadow-xs",
        !open && "border-border bg-muted/30",
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
          {programCode === run.code ? null : (
            <>
              <p className="m-0 text-destructive text-sm">
                The program waiting for approval differs from the one shown above:
              </p>
              <CodemodeValue data-testid="approval-program" text={programCode} label="Program to approve" />
            </>
          )}
        </>
      ) : several ? (
        <h4 id={titleId} className="m-0 flex items-center gap-2 font-medium text-sm">
          <ShieldQuestionIcon aria-hidden className="size-4 text-amber-600 dark:text-amber-400" />
          {run.pending.length} calls wait for approval (unanswered ones stay pending):
        </h4>
      ) : (
        <>
          <h4 id={titleId} className="m-0 flex flex-wrap items-center gap-2 font-medium text-sm">
            <ShieldQuestionIcon aria-hidden className="size-4 text-amber-600 dark:text-amber-400" />
            <span>
              Approve{" "}
              <code data-testid="approval-call" className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
                {`${first.connector}.${first.method}`}
              </code>
              ?
            </span>
            {first.editable ? <Badge variant="secondary">editable</Badge> : null}
          </h4>
          {first.request ? (
            <p className="m-0 break-all font-mono text-muted-foreground text-xs">
              {first.request.method} {first.request.url}
            </p>
          ) : null}
          {first.editable && open ? (
            <CodemodeArgsForm
              key={first.approvalId}
              args={first.args}
              schema={schemaOf(first, schemas)}
              busy={busy}
              onEdit={setEdit}
            />
          ) : (
            <CodemodeValue data-testid="approval-args" text={formatValue(first.args)} label="Arguments" />
          )}
          {edit.changed && "args" in edit ? (
            <p data-testid="approval-args-original" className="m-0 text-muted-foreground text-xs">
              The program asked for {JSON.stringify(first.args)}; the call will run with the arguments above.
            </p>
          ) : null}
        </>
      )}
      {several ? (
        <CodemodeCallDecisions
          run={run}
          decisions={decisions}
          schemas={schemas}
          busy={busy || !open}
          showButtons={open}
        />
      ) : null}
      {ran > 0 ? (
        <p data-testid="already-ran" className="m-0 text-sm">
          This execution already ran {ran} call{ran === 1 ? "" : "s"} (listed above). Rejecting stops the program; it
          does not undo them.
        </p>
      ) : null}
      <p className="m-0 text-muted-foreground text-xs">
        execution {run.executionId} ·{" "}
        {isProgram
          ? "the whole program, before it runs"
          : several
            ? `calls ${run.pending.map((call) => call.seq).join(", ")}`
            : `call ${first.seq}`}
      </p>
      {note ? (
        <div
          role={state === "failed" ? "alert" : "status"}
          data-testid={`approval-${state}`}
          className={cn(
            "flex items-start gap-2 rounded-md border p-3 text-sm [&>svg]:mt-0.5 [&>svg]:size-4 [&>svg]:shrink-0",
            state === "failed" ? "border-destructive/50 text-destructive" : "text-muted-foreground",
          )}
        >
          {note.icon}
          <div>
            <div className="font-medium">{note.title}</div>
            {status.state === "failed" ? <div>{status.message}</div> : null}
          </div>
        </div>
      ) : null}
      {open && !several ? (
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
            onClick={() => void decisions.reject(run)}
          >
            {isProgram ? "Reject the program" : "Reject and stop the program"}
          </Button>
          {decisions.waitReason ? <WaitNote reason={decisions.waitReason} /> : null}
        </div>
      ) : null}
    </section>
  );
}

function WaitNote({ reason }: { reason: string }) {
  return (
    <span data-testid="approval-disabled-reason" className="text-muted-foreground text-xs">
      {reason}
    </span>
  );
}

/** Several pending calls: approve all, reject all, or decide each, answered in one request. */
function CodemodeCallDecisions({
  run,
  decisions,
  schemas,
  busy,
  showButtons,
}: {
  run: CodemodeRunView;
  decisions: CodemodeDecisions;
  schemas: CodemodeApprovalProps["schemas"];
  busy: boolean;
  showButtons: boolean;
}) {
  const [chosen, setChosen] = useState<Record<string, boolean>>({});
  // Approve with changes, per editable call: the arguments as the person left them (sent with an approval only).
  const [edits, setEdits] = useState<Record<string, CodemodeArgsEdit>>({});
  const [editing, setEditing] = useState<Record<string, boolean>>({});
  const invalid = Object.entries(edits).some(
    ([id, edit]) => editing[id] && edit.changed && "error" in edit && chosen[id] !== false,
  );
  const decisionOf = (id: string, approved: boolean): CodemodeDecision => {
    const edit = edits[id];
    return approved && editing[id] && edit?.changed && "args" in edit ? { approved: true, args: edit.args } : approved;
  };
  const send = (choice: Record<string, boolean>) =>
    void decisions.decide(
      run,
      Object.fromEntries(Object.entries(choice).map(([id, approved]) => [id, decisionOf(id, approved)])),
    );
  const all = (approved: boolean) => Object.fromEntries(run.pending.map((call) => [call.approvalId, approved]));
  return (
    <div data-testid="decisions" data-approval-id={run.approvalId} className="space-y-2">
      <ul className="m-0 list-none space-y-2 p-0">
        {run.pending.map((call) => (
          <li
            key={call.approvalId}
            data-testid="decision"
            data-seq={call.seq}
            data-choice={
              chosen[call.approvalId] === undefined ? "none" : chosen[call.approvalId] ? "approve" : "reject"
            }
            className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border bg-background p-2"
          >
            <code className="min-w-0 flex-1 break-all font-mono text-xs">{formatCall(call)}</code>
            {call.editable ? (
              <Button
                type="button"
                variant="ghost"
                size="sm"
                className="h-7 text-xs"
                data-testid="decision-edit"
                aria-expanded={editing[call.approvalId] === true}
                disabled={busy}
                onClick={() => setEditing({ ...editing, [call.approvalId]: !editing[call.approvalId] })}
              >
                {editing[call.approvalId] ? "Keep the program's arguments" : "Edit the arguments"}
              </Button>
            ) : null}
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
            {call.editable && editing[call.approvalId] ? (
              <CodemodeArgsForm
                className="basis-full"
                args={call.args}
                schema={schemaOf(call, schemas)}
                busy={busy}
                onEdit={(edit) => setEdits((current) => ({ ...current, [call.approvalId]: edit }))}
              />
            ) : null}
          </li>
        ))}
      </ul>
      {showButtons ? (
        <div className="flex flex-wrap items-center gap-2">
          <Button type="button" data-testid="approve-all" disabled={busy || invalid} onClick={() => send(all(true))}>
            Approve all {run.pending.length}
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
            disabled={busy || invalid || Object.keys(chosen).length === 0}
            onClick={() => send(chosen)}
          >
            Submit decisions
          </Button>
          <Button
            type="button"
            variant="ghost"
            data-testid="reject"
            disabled={busy}
            onClick={() => void decisions.reject(run)}
          >
            <XIcon aria-hidden />
            Stop the program
          </Button>
          {decisions.waitReason ? <WaitNote reason={decisions.waitReason} /> : null}
        </div>
      ) : null}
    </div>
  );
}
