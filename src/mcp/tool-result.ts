/**
 * MCP `CallToolResult`s of the codemode tools: the model's view of an output as JSON text
 * (what hosts show the model) and the same object as `structuredContent` (checked by clients
 * against the tool's `outputSchema`). A failed program is `isError: true`.
 */
import type { JSONValue } from "ai";

/** A tool result as the MCP SDK sends it. */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** `view` (an object with `status`) as content and structured content; `message` is added to both when given. */
export function structuredResult(view: JSONValue, message?: string): ToolResult {
  const object: Record<string, JSONValue | undefined> =
    typeof view === "object" && view !== null && !Array.isArray(view)
      ? { ...(view as Record<string, JSONValue | undefined>) }
      : { status: "error", executionId: "", error: "The tool produced no result." };
  if (message !== undefined) object["message"] = message;
  return {
    content: [{ type: "text", text: JSON.stringify(object) }],
    structuredContent: object,
    ...(object["status"] === "error" ? { isError: true } : {}),
  };
}

/** A tool error that is not a program's output (bad arguments, a runtime that could not start): text only. */
export function errorResult(message: string): ToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** Plain text (search results, declarations). */
export function textResult(text: string): ToolResult {
  return { content: [{ type: "text", text }] };
}
