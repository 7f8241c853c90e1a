/**
 * `ai-codemode/workflow`: Code Mode inside the Workflow SDK. The `codemode` tool of a `WorkflowAgent` or a
 * `"use workflow"` function runs each program as a durable step (a retried step or a restarted process finds the
 * same execution and its journal); a paused program makes the workflow wait on a hook that any door's decision
 * resumes. `workflow` is an optional peer, loaded only by this entry.
 */
export { codemodeWorkflowTool } from "./workflow/codemode-workflow-tool.js";
export type {
  CodemodeWorkflowStep,
  CodemodeWorkflowToolOptions,
  CodemodeWorkflowToolOutput,
} from "./workflow/codemode-workflow-tool.js";
export { runCodemodeWorkflowStep, wakeCodemodeWorkflows } from "./workflow/workflow-step.js";
export type {
  CodemodeWorkflowChatOptions,
  CodemodeWorkflowStepOptions,
  CodemodeWorkflowStepRequest,
  CodemodeWorkflowStepResult,
} from "./workflow/workflow-step.js";
export { codemodeWorkflowChatStream } from "./workflow/workflow-chat-stream.js";
export type { CodemodeWorkflowChatStreamOptions } from "./workflow/workflow-chat-stream.js";
