/**
 * The pieces of a Streamable HTTP exchange the codemode MCP handler reads and writes itself: the
 * body (read with a size limit), the JSON-RPC requests in it, its error answers, a client gone
 * mid-call, and the revision a session's requests are framed by.
 */
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";

/** A JSON-RPC error answer with `status`. */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** Reads at most `max` bytes of the body; `undefined` when it is larger. */
export async function readBody(request: Request, max: number): Promise<string | undefined> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > max) return undefined;
  if (request.body === null) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) return undefined;
    chunks.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** The ids of the JSON-RPC requests in a body (a message or a batch). */
export function requestIds(body: unknown): Array<string | number> {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) => {
    const record = typeof message === "object" && message !== null ? (message as Record<string, unknown>) : {};
    const id = record["id"];
    return typeof record["method"] === "string" && (typeof id === "string" || typeof id === "number") ? [id] : [];
  });
}

export function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some(
    (message) =>
      typeof message === "object" && message !== null && (message as { method?: unknown }).method === "initialize",
  );
}

/** Cancels `ids` on `session` the way a client's `notifications/cancelled` would: their handlers see an aborted signal. */
export function cancelOnAbort(
  request: Request,
  transport: WebStandardStreamableHTTPServerTransport,
  ids: Array<string | number>,
): void {
  if (ids.length === 0) return;
  request.signal.addEventListener(
    "abort",
    () => {
      for (const requestId of ids) {
        transport.onmessage?.({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId, reason: "The client disconnected." },
        });
      }
    },
    { once: true },
  );
}

/**
 * `request` with the revision its session negotiated at `initialize` when its `MCP-Protocol-Version` header names an
 * older one (a client must send the negotiated one). The transport frames SSE by the header: a 2025-11-25 session
 * gets the priming event, which older revisions' clients could not parse, whatever a request of it claims.
 */
export function withSessionRevision(request: Request, negotiated: string | undefined): Request {
  const claimed = request.headers.get("mcp-protocol-version");
  if (negotiated === undefined || claimed === null || claimed >= negotiated) return request;
  const headers = new Headers(request.headers);
  headers.set("mcp-protocol-version", negotiated);
  // The body was read already (it goes to the transport parsed).
  return new Request(request.url, { method: request.method, headers, signal: request.signal });
}
