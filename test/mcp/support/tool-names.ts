/** The tools a codemode MCP server lists by default, in order (apart from the process scenarios, for the unit tests). */
export const DEFAULT_TOOL_NAMES = ["codemode", "codemode_search", "codemode_describe", "codemode_outcome"];
