/** The package's version, sent as the MCP server's `serverInfo.version` (a test keeps it equal to package.json's). */
export const PACKAGE_VERSION = "0.1.0";
