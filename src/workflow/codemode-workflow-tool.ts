/**
 * The workflow side of `ai-codemode/workflow` (runs in the Workflow SDK's deterministic workflow context, no Node):
 * the `codemode` tool of a `WorkflowAgent` or a `"use workflow"` function. Its `execute` calls the app's codemode
 * step; a paused program makes the workflow wait on a hook (no polling, no step left running) whose token the step
 * derived from the execution; whatever resumes the hook, the next step reads the decision from the journal.
 */
import { jsonSchema, type Tool } from "ai";
import { createHook, getWorkflowMetadata, sleep } from "workflow";
import type { CodemodeWorkflowStepRequest, CodemodeWorkflowStepResult } from "./workflow-step.js";

/** The app's `"use step"` function that calls `runCodemodeWorkflowStep(runtime, request)`. */
export type CodemodeWorkflowStep = (request: CodemodeWorkflowStepRequest) => Promise<CodemodeWorkflowStepResult>;

/** Options of {@link codemodeWorkflowTool}. */
export interface CodemodeWorkflowToolOptions {
  /** The app's codemode step (a `"use step"` function holding the runtime). */
  step: CodemodeWorkflowStep;
  /**
   * What the model reads about the tool: the connectors and their types. The workflow context cannot build it (no
   * runtime there); pass the `description` of `codemodeTool({ runtime })` computed where the runtime lives.
   * @default a short generic description
   */
  description?: string;
  /**
   * The outer tool's own approval (the Workflow SDK's `needsApproval`): the model's program is shown to a person
   * before it starts. Calls inside the program still pause on their own policies.
   * @default false
   */
  needsApproval?: boolean;
  /**
   * How long the workflow waits on a pause's hook before reading the journal again anyway (a durable sleep, no
   * step runs meanwhile): the backstop for a decision whose process died before it could wake the workflow (its
   * pass is taken over once its lease expires). Use the runtime's lease length.
   * @default 300000 (5 minutes, the runtime's default lease)
   */
  recheckAfterMs?: number;
  /**
   * The owner of the executions this tool starts (e.g. the chat's signed-in user id, at most 200 characters): a
   * door deciding with a `scope` (the chat route's `scope: userId`) decides only its own. Pass it into the workflow
   * as an argument (`start(chat, [messages, userId])`).
   * @default undefined (unscoped: only unscoped doors, like an inspector showing every execution, decide them)
   */
  scope?: string;
}

/** The tool's result: the program's outcome (a pause never reaches the model: the workflow waits instead). */
export type CodemodeWorkflowToolOutput = Exclude<CodemodeWorkflowStepResult, { status: "paused" }>;

/** The runtime's default lease: after it, a pass whose process died can be taken over. */
const DEFAULT_RECHECK_AFTER_MS = 5 * 60_000;

const DEFAULT_DESCRIPTION =
  "Run a JavaScript program (an async arrow function) that calls the connectors on the global `tools` object. Calls that need approval pause the program until a person decides.";

const INPUT_SCHEMA = jsonSchema<{ code: string }>({
  type: "object",
  properties: { code: { type: "string", description: "An async arrow function: async () => { … }" } },
  required: ["code"],
  additionalProperties: false,
});

/**
 * The `codemode` tool for a workflow: each program is a durable step whose pauses wait on workflow hooks.
 *
 * @example
 * ```ts
 * import { WorkflowAgent } from "@ai-sdk/workflow";
 * import { codemodeWorkflowTool, runCodemodeWorkflowStep, type CodemodeWorkflowStepRequest } from "ai-codemode/workflow";
 * import { runtime } from "../lib/codemode"; // createCodemodeRuntime({ … }), used only inside the step
 *
 * async function codemodeStep(request: CodemodeWorkflowStepRequest) {
 *   "use step";
 *   return runCodemodeWorkflowStep(runtime, request);
 * }
 *
 * export async function chat(messages: ModelMessage[]) {
 *   "use workflow";
 *   const agent = new WorkflowAgent({ model, tools: { codemode: codemodeWorkflowTool({ step: codemodeStep }) } });
 *   return agent.stream({ messages, writable: getWritable() });
 * }
 * ```
 */
export function codemodeWorkflowTool({
  step,
  description = DEFAULT_DESCRIPTION,
  needsApproval = false,
  recheckAfterMs = DEFAULT_RECHECK_AFTER_MS,
  scope,
}: CodemodeWorkflowToolOptions): Tool<{ code: string }, CodemodeWorkflowToolOutput> {
  return {
    description,
    inputSchema: INPUT_SCHEMA,
    needsApproval,
    execute: async ({ code }, { toolCallId }) => {
      const { workflowRunId } = getWorkflowMetadata();
      let result = await step({
        action: "run",
        code,
        workflowRunId,
        toolCallId,
        ...(scope === undefined ? {} : { scope }),
      });
      while (result.status === "paused") {
        // The hook exists before the next step reads the journal, so a decision made after that read wakes it;
        // one made before it is what the read finds. Whoever resumes the hook, its payload is ignored: the step
        // reads the decision from the journal, and a wake-up without a decision finds the program still paused.
        // `waitingOn`: the pause already shown in the chat (with the step's `chat` option) is not written again.
        const hook = createHook<unknown>({ token: result.hookToken });
        const waitingOn = result.pending.map((action) => action.seq);
        const read = await step({ action: "check", workflowRunId, toolCallId, waitingOn });
        if (read.status === "paused") await Promise.race([hook, sleep(recheckAfterMs)]);
        hook.dispose();
        result =
          read.status === "paused" ? await step({ action: "check", workflowRunId, toolCallId, waitingOn }) : read;
      }
      return result;
    },
  };
}
