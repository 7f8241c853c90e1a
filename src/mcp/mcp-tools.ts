/**
 * The tools a codemode MCP server lists: their names, input and output JSON Schemas and
 * annotations. `codemode` runs a program (the same description and `{ code }` input as
 * `runtime.tool()`); `codemode_search` and `codemode_describe` are the discovery tools for
 * hosts whose model would rather look methods up than write a program to do it;
 * `codemode_outcome` reads (never decides) an execution a person decided elsewhere.
 */
import type { JSONSchema7 } from "@ai-sdk/provider";

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

const EXECUTION_ID = { type: "string", description: "The execution id a codemode result gave" } as const;

/** One pending call, as the model sees it. */
const PENDING_SCHEMA: JSONSchema7 = {
  type: "object",
  properties: {
    seq: { type: "integer" },
    connector: { type: "string" },
    method: { type: "string" },
    args: {},
    request: { type: "object", properties: { method: { type: "string" }, url: { type: "string" } } },
  },
  required: ["seq", "connector", "method"],
};

/**
 * The structured result of `codemode` and `codemode_outcome`: a `CodeModeOutput` in JSON form
 * (`status` completed / paused / error), or, for the outcome tool, an execution still `running`
 * elsewhere, `rejected` or `rolled_back`. `message` says what to do next.
 */
export const OUTPUT_SCHEMA: JSONSchema7 = {
  type: "object",
  properties: {
    status: { type: "string", enum: ["completed", "paused", "error", "running", "rejected", "rolled_back"] },
    executionId: { type: "string" },
    result: {},
    logs: { type: "array", items: { type: "string" } },
    pending: { type: "array", items: PENDING_SCHEMA },
    error: { type: "string" },
    kind: { type: "string" },
    message: { type: "string" },
  },
  required: ["status", "executionId"],
};

/** A tool as `tools/list` returns it. */
export interface McpToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JSONSchema7 & { type: "object" };
  outputSchema?: JSONSchema7 & { type: "object" };
  annotations: { readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint: boolean };
}

/** The `codemode` tool: `description` and `inputSchema` are the ones `runtime.tool()` has. */
export function codemodeToolDefinition(description: string, inputSchema: JSONSchema7): McpToolDefinition {
  return {
    name: CODEMODE_TOOL,
    title: "Run a codemode program",
    description,
    inputSchema: { ...inputSchema, type: "object" },
    outputSchema: { ...OUTPUT_SCHEMA, type: "object" },
    // A program may call any connector method; methods that need approval pause for a person.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  };
}

/** `codemode_search`. */
export const SEARCH_TOOL_DEFINITION: McpToolDefinition = {
  name: SEARCH_TOOL,
  title: "Search codemode methods",
  description:
    "Ranked paths of the namespaces' methods and saved snippets matching a query (no schemas: " +
    "codemode_describe gives those). The same as codemode.search() inside a program.",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", description: "What you need, in words" },
      limit: { type: "integer", minimum: 1, maximum: MAX_SEARCH_LIMIT, description: "Results (default 10)" },
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
  description:
    'TypeScript declarations of a namespace ("github"), a method ("github.list_issues") or a snippet. ' +
    "The same as codemode.describe() inside a program.",
  inputSchema: {
    type: "object",
    properties: { target: { type: "string", description: "namespace, namespace.method or snippets.name" } },
    required: ["target"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

/** `codemode_outcome`. */
export const OUTCOME_TOOL_DEFINITION: McpToolDefinition = {
  name: OUTCOME_TOOL,
  title: "Read a codemode execution's outcome",
  description:
    "The current outcome of a codemode execution: after a paused result, once a person decided it " +
    "(approved or rejected elsewhere), this returns the resumed result. Read-only: it decides nothing.",
  inputSchema: {
    type: "object",
    properties: { executionId: EXECUTION_ID },
    required: ["executionId"],
    additionalProperties: false,
  },
  outputSchema: { ...OUTPUT_SCHEMA, type: "object" },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};
