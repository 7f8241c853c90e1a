import { codemodeApprovalStatus } from "ai-codemode/ui";
import { getCodemodeRuntime } from "@/lib/codemode";
import { getSecret } from "@/lib/secrets";
import { userOfRequest } from "@/lib/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * The status check of the chat's open cards (`useCodemodeDecisions(chat, { statusApi: "/api/chat/status" })` in
 * app/chat.tsx): which of their approvals were decided elsewhere (the inspector, an approval link, the CLI, an MCP
 * client). Only the signed-in user's executions, and only approvals signed by the chat route, are looked up.
 */
export async function POST(request: Request): Promise<Response> {
  const userId = await userOfRequest(request);
  if (userId === undefined) return new Response("Not signed in.", { status: 401 });
  return codemodeApprovalStatus({
    runtime: getCodemodeRuntime(),
    request,
    scope: userId,
    toolApprovalSecret: await getSecret("toolApproval"),
  });
}
