/** What `ai-codemode/mcp` exports, loaded by `import()` (see `load-mcp-implementation.ts`). */
export { createCodemodeMcpServer } from "./create-codemode-mcp-server.js";
export { createCodemodeMcpHandler } from "./create-codemode-mcp-handler.js";
export { createCodemodeMcpProxy } from "./proxy/create-codemode-mcp-proxy.js";
export { parseProxyConfig } from "./proxy/proxy-config.js";
