/**
 * `ai-codemode/mcp`: a codemode runtime as an MCP server for any MCP host (stdio, Streamable
 * HTTP), approvals by elicitation, and a code-mode proxy in front of other MCP servers. A
 * separate entry: it loads `@modelcontextprotocol/sdk` (and, for the proxy, `@ai-sdk/mcp` on
 * first use), optional peer dependencies that importing the main entry never loads. The
 * implementation is loaded with `import()`, so a missing SDK is named with its install command
 * instead of Node's "Cannot find package" from one of our chunks.
 */
import { loadMcpImplementation } from "./mcp/load-mcp-implementation.js";

const mcp = await loadMcpImplementation();

/**
 * An `McpServer` of `@modelcontextprotocol/sdk` serving a codemode runtime: `codemode` (run a program),
 * `codemode_search` and `codemode_describe`; connect it to any transport.
 */
export const createCodemodeMcpServer: typeof mcp.createCodemodeMcpServer = mcp.createCodemodeMcpServer;
/** A Fetch-API handler `(request) => Promise<Response>` serving a codemode runtime over Streamable HTTP. */
export const createCodemodeMcpHandler: typeof mcp.createCodemodeMcpHandler = mcp.createCodemodeMcpHandler;
/** A code-mode proxy over other MCP servers: one runtime whose namespaces are their tools, started on first use. */
export const createCodemodeMcpProxy: typeof mcp.createCodemodeMcpProxy = mcp.createCodemodeMcpProxy;
/** Parses and validates the text of a `servers.json` (the shape MCP hosts use); `${VAR}` is read from `env`. */
export const parseProxyConfig: typeof mcp.parseProxyConfig = mcp.parseProxyConfig;
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
