/**
 * `ai-codemode inspect --web`: serves the web inspector on 127.0.0.1 with Node's
 * `http` server, adapting its requests to the Fetch-API handler. Only loopback Host
 * headers are answered (a DNS name rebound to 127.0.0.1 is refused).
 */
import { CliError } from "../errors/cli-error.js";
import { messageOf } from "../shared/message-of.js";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createCodemodeInspector } from "../inspector/create-codemode-inspector.js";
import type { InspectorRuntime } from "../inspector/inspector-runtime.js";
import { fetchHeaders } from "./fetch-over-node-http.js";

/** Largest request body read (actions carry a call number and a reason). */
const MAX_BODY_BYTES = 64 * 1024;
/** A Host header naming a loopback address (a DNS name rebound to 127.0.0.1 does not match). */
export const LOOPBACK = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

/** A running inspector server. */
export interface InspectorServer {
  url: string;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      throw new CliError({ message: `request body too large (more than ${MAX_BODY_BYTES} bytes)` });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function toRequest(request: IncomingMessage, body: Buffer | undefined, origin: string): Request {
  return new Request(new URL(request.url ?? "/", origin), {
    method: request.method ?? "GET",
    headers: fetchHeaders(request),
    ...(body === undefined ? {} : { body: new Uint8Array(body) }),
  });
}

async function answer(
  handler: (request: Request) => Promise<Response>,
  request: IncomingMessage,
  response: ServerResponse,
  origin: string,
): Promise<void> {
  try {
    const body = await readBody(request);
    const result = await handler(toRequest(request, body, origin));
    const headers: Record<string, string> = {};
    result.headers.forEach((value, name) => {
      headers[name] = value;
    });
    response.writeHead(result.status, headers);
    response.end(Buffer.from(await result.arrayBuffer()));
  } catch (error) {
    response.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
    response.end(messageOf(error));
  }
}

/** Starts the inspector on 127.0.0.1:`port` (0: any free port). */
export async function serveInspector({
  runtime,
  port,
  readOnly,
}: {
  runtime: InspectorRuntime;
  port: number;
  readOnly: boolean;
}): Promise<InspectorServer> {
  const handler = createCodemodeInspector({
    runtime,
    readOnly,
    // The developer's own machine: every execution.
    authorize: (request) => (LOOPBACK.test(request.headers.get("host") ?? "") ? { unscoped: true } : false),
  });
  const server: Server = createServer((request, response) => {
    void answer(handler, request, response, `http://${request.headers.host ?? "127.0.0.1"}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
