/**
 * Loads what `ai-codemode/mcp` exports. `@modelcontextprotocol/sdk` is an optional peer: when it is not
 * installed the error names it once with the command that installs it; any other failure is rethrown as it is.
 */
import { missingPackage, missingPeersMessage } from "../shared/missing-peer.js";

export async function loadMcpImplementation(): Promise<typeof import("./mcp-implementation.js")> {
  try {
    return await import("./mcp-implementation.js");
  } catch (error) {
    if (missingPackage(error, ["@modelcontextprotocol/sdk"]) === undefined) throw error;
    throw new Error(missingPeersMessage("ai-codemode/mcp", ["@modelcontextprotocol/sdk"]), { cause: error });
  }
}
