// app/api/mcp/route.ts: the app's codemode as an MCP server (Streamable HTTP) for any MCP client.
import { createCodemodeMcpHandler } from "ai-codemode/mcp";
import { getCodemodeRuntime } from "@/lib/codemode";
import { userFromCookie, userOfRequest } from "@/lib/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handler = createCodemodeMcpHandler({
  runtime: getCodemodeRuntime, // made at the first request, then reused by this instance
  // A serverless host answers from many instances: every request stands alone, and a paused
  // program is an MCP task any instance answers from the database.
  sessions: false,
  // The signed-in user owns what their programs run and is the only one who sees it: the session
  // cookie, or its value as a bearer token for clients without cookies (a real app issues its own tokens).
  authorize: async (request) => {
    const bearer = /^Bearer (\S+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
    const userId = bearer === undefined ? await userOfRequest(request) : await userFromCookie(bearer);
    return userId === undefined ? false : { scope: userId };
  },
  approvalHint: "A person approves or rejects it in the app's inspector at /codemode (execution {id}).",
});

export { handler as GET, handler as POST, handler as DELETE };
