/**
 * `ai-codemode/inspector`: the web inspector, a Fetch-API handler over a runtime's journal. A separate entry:
 * importing the main entry loads none of it.
 */
export { createCodemodeInspector } from "./inspector/create-codemode-inspector.js";
export type { CodemodeInspectorOptions } from "./inspector/create-codemode-inspector.js";
export type { InspectorAuthorization } from "./inspector/inspector-authorization.js";
