/**
 * The `/workflow` chat's agent, run as a Vercel Workflow (`withWorkflow` in next.config.ts, the local world by
 * default): each model call is a durable step of `WorkflowAgent`, and the `codemode` tool is one more — a program
 * runs in `codemodeStep` over the same runtime, journal and GitHub tools as the main chat (lib/codemode.ts). When a
 * program pauses for approval, the workflow waits on a hook (no step left running); the chat card's answer, the
 * inspector or the CLI decide through the runtime, which wakes the hook, in this process or in a restarted one.
 */
import { WorkflowAgent } from "@ai-sdk/workflow";
import { isStepCount, type ModelMessage } from "ai";
import { type CodemodeWorkflowStepRequest, codemodeWorkflowTool, runCodemodeWorkflowStep } from "ai-codemode/workflow";
import { getWritable } from "workflow";
import { getCodemodeRuntime, workflowsWoken } from "@/lib/codemode";
import { OpenAIStepModel } from "@/lib/model";
import { ScriptedModel } from "@/lib/scripted-model";
import { getSecret } from "@/lib/secrets";

/** What the chat route starts the workflow with (serialized into the run: plain data only). */
export interface WorkflowChatInput {
  /** The conversation so far, as model messages. */
  messages: ModelMessage[];
  /** The signed-in user: owner (`scope`) of every execution the run starts. */
  userId: string;
  /** The `codemode` tool's description, computed by the route where the runtime lives (the namespaces and types). */
  description: string;
  /** The OpenAI model to use, or undefined for the offline scripted model (the route reads OPENAI_API_KEY). */
  openaiModel?: string;
}

const instructions =
  "You help with the acme/web repository. Use the codemode tool: write one async arrow function that calls " +
  "tools.list_pull_requests and tools.merge_pull_request. When a call is rejected, do not retry it.";

/** One program of the `codemode` tool: a durable step with Node, the database and the runtime. */
async function codemodeStep(request: CodemodeWorkflowStepRequest) {
  "use step";
  const secret = await workflowsWoken();
  // `chat`: a pause is written to the run's stream as the codemode call's approval request, signed like `/`'s.
  const toolApprovalSecret = await getSecret("toolApproval");
  return runCodemodeWorkflowStep(getCodemodeRuntime(), request, { secret, chat: { toolApprovalSecret } });
}

/** The chat agent as a workflow: the model's stream goes to the run's stream, which the chat route reads. */
export async function chat({ messages, userId, description, openaiModel }: WorkflowChatInput) {
  "use workflow";
  const agent = new WorkflowAgent({
    // The model crosses the workflow/step boundary: both classes declare their serialization (no secret in it).
    model: openaiModel === undefined ? new ScriptedModel() : new OpenAIStepModel(openaiModel),
    instructions,
    tools: { codemode: codemodeWorkflowTool({ step: codemodeStep, scope: userId, description }) },
    stopWhen: isStepCount(8),
  });
  await agent.stream({ messages, writable: getWritable() });
}
