/**
 * MCP tools as produced by `@ai-sdk/mcp`'s `createMCPClient(...).tools()`:
 * recognising them, reading their annotations, and unwrapping their results
 * into plain values for the program.
 */
import { isRecord } from "../shared/is-record.js";
import { McpToolError } from "../errors/mcp-tool-error.js";

/** MCP tool annotations (MCP spec `ToolAnnotations`), as `@ai-sdk/mcp` copies them into `metadata.annotations`. */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * Whether a tool came from `@ai-sdk/mcp`: it carries `metadata.clientName` and
 * `metadata.toolName`, or the raw MCP `_meta` key the client adds to every tool.
 */
export function isMcpTool(tool: object): boolean {
  const metadata = (tool as { metadata?: unknown }).metadata;
  if (isRecord(metadata) && typeof metadata["clientName"] === "string" && typeof metadata["toolName"] === "string") {
    return true;
  }
  return Object.hasOwn(tool, "_meta");
}

/** The tool's MCP annotations, if any. */
export function mcpAnnotations(tool: object): McpToolAnnotations {
  const metadata = (tool as { metadata?: unknown }).metadata;
  const annotations = isRecord(metadata) ? metadata["annotations"] : undefined;
  if (!isRecord(annotations)) return {};
  const out: McpToolAnnotations = {};
  for (const key of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
    if (typeof annotations[key] === "boolean") out[key] = annotations[key];
  }
  if (typeof annotations["title"] === "string") out.title = annotations["title"];
  return out;
}

/**
 * Policy defaults from annotations (MCP spec semantics): a tool that is not
 * read-only and not explicitly non-destructive may destroy data, so
 * `destructiveHint` (default true for non-read-only tools) requires approval
 * only when stated explicitly; `readOnlyHint: true` allows `reexecute`.
 */
export function mcpPolicyDefaults(annotations: McpToolAnnotations): {
  needsApproval: boolean;
  allowsReexecute: boolean;
} {
  const readOnly = annotations.readOnlyHint === true;
  return {
    needsApproval: !readOnly && annotations.destructiveHint === true,
    allowsReexecute: readOnly,
  };
}

function contentText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const part of content) {
    if (isRecord(part) && part["type"] === "text" && typeof part["text"] === "string") texts.push(part["text"]);
  }
  return texts.length === 0 ? undefined : texts.join("\n");
}

/**
 * Unwraps an MCP `CallToolResult` into the value the program sees:
 * `structuredContent` when present, else the text content parsed as JSON, else
 * the text itself; other content (images, resources) is returned as the content
 * array. `isError` throws `McpToolError` (a rejection inside the program).
 * Values that are not `CallToolResult`s (e.g. already extracted by an
 * `outputSchema`) pass through.
 */
export function unwrapMcpResult(result: unknown): unknown {
  if (!isRecord(result) || !Array.isArray(result["content"])) return result;
  const text = contentText(result["content"]);
  if (result["isError"] === true) {
    throw new McpToolError(text ?? "The MCP tool reported an error without a message.");
  }
  if (result["structuredContent"] !== undefined && result["structuredContent"] !== null) {
    return result["structuredContent"];
  }
  if (text === undefined) return result["content"];
  const onlyText = (result["content"] as unknown[]).every((part) => isRecord(part) && part["type"] === "text");
  if (!onlyText) return result["content"];
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
