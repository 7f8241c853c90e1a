/**
 * The tools a codemode MCP server lists: their names, input and output JSON Schemas and
 * annotations. `codemode` runs a program (the same description and `{ code }` input as
 * `runtime.tool()`); `codemode_search` and `codemode_describe` are the discovery tools for
 * hosts whose model would rather look methods up than write a program to do it;
 * `codemode_outcome` reads (never decides) an execution a person decided elsewhere.
 */
import type { JSONSchema7 } from "ai";
import { CODEMODE_INPUT_JSON_SCHEMA } from "../ai/codemode-input-schema.js";

/** The tool that runs a program. */
export const CODEMODE_TOOL = "codemode";
/** Ranked paths of methods and snippets (`runtime.search`). */
export const SEARCH_TOOL = "codemode_search";
/** TypeScript declarations of a namespace, method or snippet (`runtime.describe`). */
export const DESCRIBE_TOOL = "codemode_describe";
/** The current outcome of an execution (read-only: no tool approves, rejects or resumes). */
export const OUTCOME_TOOL = "codemode_outcome";

/** Largest `limit` the search tool accepts. */
export const MAX_SEARCH_LIMIT = 50;

/**
 * The structured result of `codemode` and `codemode_outcome`: a `CodemodeOutput` in JSON form
 * (`status` completed / paused / error), or, for the outcome tool, an execution still `running`
 * elsewhere, `rejected` or `rolled_back`; `message` says what to do next. Field types only (the
 * `codemode` description explains them): every host pays this schema on every request.
 */
const OUTPUT_SCHEMA: JSONSchema7 = {
  type: "object",
  properties: {
    status: { enum: ["completed", "paused", "error", "running", "rejected", "rolled_back"] },
    executionId: { type: "string" },
    result: {},
    pending: { type: "array", items: { type: "object" } },
    error: { type: "string" },
    kind: { type: "string" },
    logs: { type: "array", items: { type: "string" } },
    message: { type: "string" },
  },
  required: ["status", "executionId"],
};

/**
 * `codemode`'s input where a paused call answers `-32042` (approval links without sessions): `{ code }` and the
 * `retry` id that error gave, echoed to get that call's result.
 */
export const CODEMODE_RETRY_INPUT_JSON_SCHEMA: JSONSchema7 = {
  ...CODEMODE_INPUT_JSON_SCHEMA,
  properties: {
    ...CODEMODE_INPUT_JSON_SCHEMA.properties,
    retry: {
      type: "string",
      description: "only with the retry id a paused call's error gave: returns that call's result, runs nothing",
    },
  },
};

/** A tool as `tools/list` returns it. */
export interface McpToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JSONSchema7 & { type: "object" };
  outputSchema?: JSONSchema7 & { type: "object" };
  /** Omitted for `codemode`: MCP's defaults (not read-only, destructive, open world) are what it is. */
  annotations?: { readOnlyHint: true; openWorldHint: false };
  /** `codemode` may run as an MCP task (a client that does not ask for one gets the result as before). */
  execution?: { taskSupport: "optional" };
  /** MCP Apps: the UI resource a host shows with the tool's results, and who may call it (`approval-card.ts`). */
  _meta?: { ui: { resourceUri: string; visibility?: Array<"model" | "app"> }; "ui/resourceUri"?: string };
}

/** The `codemode` tool: `description` and `inputSchema` are the ones `runtime.tool()` has. */
export function codemodeToolDefinition(description: string, inputSchema: JSONSchema7): McpToolDefinition {
  return {
    name: CODEMODE_TOOL,
    title: "Run a codemode program",
    description,
    inputSchema: { ...inputSchema, type: "object" },
    outputSchema: { ...OUTPUT_SCHEMA, type: "object" },
    execution: { taskSupport: "optional" },
  };
}

/** `codemode_search`. */
export const SEARCH_TOOL_DEFINITION: McpToolDefinition = {
  name: SEARCH_TOOL,
  title: "Search codemode methods",
  description: "codemode.search(query) without a program: ranked method and snippet paths.",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string" },
      limit: { type: "integer", minimum: 1, maximum: MAX_SEARCH_LIMIT },
    },
    required: ["query"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

/** `codemode_describe`. */
export const DESCRIBE_TOOL_DEFINITION: McpToolDefinition = {
  name: DESCRIBE_TOOL,
  title: "Describe a codemode method",
  description: 'codemode.describe(target) without a program: TypeScript types of "ns", "ns.method" or a snippet.',
  inputSchema: {
    type: "object",
    properties: { target: { type: "string" } },
    required: ["target"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

/** `codemode_outcome`. */
export const OUTCOME_TOOL_DEFINITION: McpToolDefinition = {
  name: OUTCOME_TOOL,
  title: "Read a codemode execution's outcome",
  description: "Read-only: the outcome of a paused codemode execution once a person decided it elsewhere.",
  inputSchema: {
    type: "object",
    properties: { executionId: { type: "string" } },
    required: ["executionId"],
    additionalProperties: false,
  },
  outputSchema: { ...OUTPUT_SCHEMA, type: "object" },
  annotations: { readOnlyHint: true, openWorldHint: false },
};
