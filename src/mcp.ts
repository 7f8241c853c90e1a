/**
 * `ai-codemode/mcp`: a codemode runtime as an MCP server for any MCP host (stdio, Streamable
 * HTTP), approvals by elicitation, and a code-mode proxy in front of other MCP servers. A
 * separate entry: it imports `@modelcontextprotocol/server` (the MCP SDK v2, which answers clients
 * of the 2026-07-28 and the 2025-11-25 revisions; and, for the proxy, `@ai-sdk/mcp` on first use),
 * optional peer dependencies that importing the main entry never loads. Its exports are static,
 * so editors show their own documentation; without the SDK installed, importing this entry fails
 * with Node's `ERR_MODULE_NOT_FOUND` naming `@modelcontextprotocol/server` (the `ai-codemode mcp`
 * command checks first and prints the install command).
 */
export { createCodemodeMcpServer } from "./mcp/create-codemode-mcp-server.js";
export { createCodemodeMcpHandler } from "./mcp/create-codemode-mcp-handler.js";
export { createCodemodeMcpProxy } from "./mcp/proxy/create-codemode-mcp-proxy.js";
export { parseProxyConfig } from "./mcp/proxy/proxy-config.js";
export type {
  CodemodeMcpHandler,
  CodemodeMcpHandlerOptions,
  McpAuthorization,
} from "./mcp/create-codemode-mcp-handler.js";
export type { CodemodeMcpServerOptions } from "./mcp/mcp-server-options.js";
export type { CodemodeMcpProxy, CodemodeMcpProxyOptions } from "./mcp/proxy/create-codemode-mcp-proxy.js";
export type {
  HttpUpstreamConfig,
  ProxyConfigFile,
  StdioUpstreamConfig,
  UpstreamConfig,
} from "./mcp/proxy/proxy-config.js";
