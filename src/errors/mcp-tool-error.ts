/** An MCP tool answered `isError: true`: the call rejects inside the program with the tool's text. */
import { CodemodeError } from "./codemode-error.js";

/** An MCP tool returned `isError: true`; its message is the text content. */
export class McpToolError extends CodemodeError {
  static override readonly errorCode = "mcp-tool" as const;
  constructor(message: string) {
    super({ code: McpToolError.errorCode, message });
    this.name = "McpToolError";
  }
}
