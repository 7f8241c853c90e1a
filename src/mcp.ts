/**
 * `ai-codemode/mcp`: a codemode runtime as an MCP server for any MCP host (stdio, Streamable
 * HTTP), approvals by elicitation, and a code-mode proxy in front of other MCP servers. A
 * separate entry: it loads `@modelcontextprotocol/sdk` (an optional peer dependency), and
 * importing the main entry loads none of it.
 */
export { createCodemodeMcpServer } from "./mcp/create-codemode-mcp-server.js";
export {
  DEFAULT_APPROVAL_HINT,
  DEFAULT_ELICITATION_TIMEOUT_MS,
  MAX_ELICITATIONS_PER_CALL,
} from "./mcp/mcp-server-options.js";
export type { CodemodeMcpServerOptions, McpServerRuntime } from "./mcp/mcp-server-options.js";
export { CODEMODE_TOOL, DESCRIBE_TOOL, OUTCOME_TOOL, SEARCH_TOOL } from "./mcp/mcp-tools.js";
