/**
 * Node's `http` server in front of a Fetch-API handler: an `IncomingMessage` becomes a `Request`
 * (its body streamed, its signal aborted when the client goes away before the answer is sent),
 * and a `Response` is written back as it streams (server-sent events included).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

/** The request's headers as a `Headers`. */
export function fetchHeaders(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  return headers;
}

/** `request` as a Fetch `Request` on `origin`, its body streamed; aborted when `response` closes unfinished. */
export function streamingFetchRequest(request: IncomingMessage, response: ServerResponse, origin: string): Request {
  const controller = new AbortController();
  response.once("close", () => {
    if (!response.writableFinished) controller.abort();
  });
  const method = request.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(new URL(request.url ?? "/", origin), {
    method,
    headers: fetchHeaders(request),
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(request) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  } as RequestInit);
}

/** Writes `result` to `response`, streaming its body chunk by chunk. */
export async function sendFetchResponse(response: ServerResponse, result: Response): Promise<void> {
  const headers: Record<string, string> = {};
  result.headers.forEach((value, name) => {
    headers[name] = value;
  });
  response.writeHead(result.status, headers);
  response.flushHeaders();
  if (result.body === null) {
    response.end();
    return;
  }
  try {
    for await (const chunk of result.body as unknown as AsyncIterable<Uint8Array>) {
      if (response.destroyed) break;
      response.write(chunk);
    }
  } finally {
    response.end();
  }
}
