/**
 * `ai-codemode/inspector`: the web inspector (a Fetch-API handler) and the timeline
 * model it shares with the `ai-codemode` CLI. A separate entry: importing the main
 * entry loads none of it.
 */
export { createCodemodeInspector, DEFAULT_INSPECTOR_REFRESH_MS } from "./inspector/create-codemode-inspector.js";
export type { CodemodeInspectorOptions } from "./inspector/create-codemode-inspector.js";
export type { InspectorRuntime } from "./inspector/inspector-runtime.js";
export { executionTimeline } from "./inspector/execution-timeline.js";
export type {
  ExecutionTimeline,
  TimelineCall,
  TimelineCallState,
  TimelineDecision,
  TimelinePass,
  TimelineWait,
} from "./inspector/execution-timeline.js";
export { listExecutions } from "./inspector/list-executions.js";
export type { ExecutionRow, ListExecutionsOptions } from "./inspector/list-executions.js";
