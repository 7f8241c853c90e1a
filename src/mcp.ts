/**
 * `ai-codemode/mcp`: a codemode runtime as an MCP server for any MCP host (stdio, Streamable
 * HTTP), approvals by elicitation, and a code-mode proxy in front of other MCP servers. A
 * separate entry: it loads `@modelcontextprotocol/sdk` (and, for the proxy, `@ai-sdk/mcp` on
 * first use), optional peer dependencies that importing the main entry never loads.
 */
export { createCodemodeMcpServer } from "./mcp/create-codemode-mcp-server.js";
export {
  createCodemodeMcpHandler,
  DEFAULT_MCP_MAX_BODY_BYTES,
  DEFAULT_MCP_MAX_SESSIONS,
  DEFAULT_MCP_SESSION_IDLE_MS,
} from "./mcp/create-codemode-mcp-handler.js";
export type {
  CodemodeMcpHandler,
  CodemodeMcpHandlerOptions,
  McpAuthorization,
} from "./mcp/create-codemode-mcp-handler.js";
export {
  DEFAULT_APPROVAL_HINT,
  DEFAULT_ELICITATION_TIMEOUT_MS,
  MAX_ELICITATIONS_PER_CALL,
} from "./mcp/mcp-server-options.js";
export type { CodemodeMcpServerOptions, McpServerRuntime } from "./mcp/mcp-server-options.js";
export { CODEMODE_TOOL, DESCRIBE_TOOL, OUTCOME_TOOL, SEARCH_TOOL } from "./mcp/mcp-tools.js";
export { createCodemodeMcpProxy, DEFAULT_UPSTREAM_RETRY_MS } from "./mcp/proxy/create-codemode-mcp-proxy.js";
export type { CodemodeMcpProxy, CodemodeMcpProxyOptions } from "./mcp/proxy/create-codemode-mcp-proxy.js";
export { DEFAULT_UPSTREAM_START_TIMEOUT_MS } from "./mcp/proxy/upstream-server.js";
export type { UpstreamStderr } from "./mcp/proxy/upstream-server.js";
export { parseProxyConfig } from "./mcp/proxy/proxy-config.js";
export type {
  HttpUpstreamConfig,
  ProxyConfigFile,
  StdioUpstreamConfig,
  UpstreamConfig,
} from "./mcp/proxy/proxy-config.js";
