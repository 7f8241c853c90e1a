/**
 * `ai-codemode/react`: headless React hooks for codemode tool parts in a `useChat` conversation. `useCodemodeRun`
 * reads a part (program, calls with their live state, logs, pending calls, outcome); `useCodemodeDecisions`
 * approves, edits and rejects pending calls, several at once. Needs `react` (and `@ai-sdk/react` for `useChat`),
 * optional peers that nothing else of the package loads.
 */
export type {
  CodemodePendingCall,
  CodemodeRunCall,
  CodemodeRunView,
} from "./ai/react/codemode-run-view.js";
export type { CodemodeRunOutcome } from "./ai/react/codemode-run-outcome.js";
export { useCodemodeRun } from "./ai/react/use-codemode-run.js";
export type { CodemodeDecisionStatus } from "./ai/react/codemode-decision-status.js";
export type { CodemodeChat, CodemodeDecisions, CodemodeDecisionsOptions } from "./ai/react/use-codemode-decisions.js";
export { useCodemodeDecisions } from "./ai/react/use-codemode-decisions.js";
export type { CodemodeDecision } from "./ai/ui/codemode-decisions.js";
