/**
 * Node's `http` server in front of a Fetch-API handler: an `IncomingMessage` becomes a `Request`
 * (its body streamed, its signal aborted when the client goes away before the answer is sent),
 * and the `Response` is written back as it streams (server-sent events included). A handler that
 * answers before reading the whole body (a 413) gets the rest drained, not the socket reset, so
 * the client reads the answer; that connection then closes. A request whose Host or target does
 * not make a URL (`Host: [`, a port past 65535) is answered 400 here: it never reaches the handler.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { messageOf } from "../shared/message-of.js";

/** The request's headers as a `Headers`. */
export function fetchHeaders(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  return headers;
}

/** The body as a web stream with back-pressure; cancelling it drains the rest instead of destroying the socket. */
function bodyStream(request: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      request.on("data", (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk));
        if ((controller.desiredSize ?? 0) <= 0) request.pause();
      });
      request.once("end", () => controller.close());
      request.once("error", (error) => controller.error(error));
    },
    pull() {
      request.resume();
    },
    cancel() {
      request.removeAllListeners("data");
      request.resume();
    },
  });
}

/** `request` as a Fetch `Request` on `origin`; its signal aborts when `response` closes unfinished. */
function toFetchRequest(request: IncomingMessage, response: ServerResponse, origin: string): Request {
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
    ...(hasBody ? { body: bodyStream(request), duplex: "half" } : {}),
  } as RequestInit);
}

/** Writes `result` to `response`, streaming its body chunk by chunk. */
async function sendFetchResponse(request: IncomingMessage, response: ServerResponse, result: Response): Promise<void> {
  const headers: Record<string, string> = {};
  result.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // The handler answered before the body ended: drain it and close this connection after the answer.
  if (!request.complete) {
    headers["connection"] = "close";
    request.removeAllListeners("data");
    request.resume();
  }
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

/** Answers 400 to a request that cannot become a `Request`, draining its body so the client reads the answer. */
export function badRequest(request: IncomingMessage, response: ServerResponse, why: string): void {
  request.resume();
  response.writeHead(400, { "content-type": "text/plain; charset=utf-8", connection: "close" });
  response.end(`Bad request: ${why}`);
}

/** A Node request listener answering every request with `handler`. */
export function fetchRequestListener(handler: (request: Request) => Promise<Response>): RequestListener {
  return (request, response) => {
    let fetchRequest: Request;
    try {
      fetchRequest = toFetchRequest(request, response, `http://${request.headers.host ?? "127.0.0.1"}`);
    } catch {
      // Thrown inside a listener this would end the process (and every run in flight).
      badRequest(request, response, "the Host header or the request target is not a valid URL.");
      return;
    }
    void handler(fetchRequest)
      .then((result) => sendFetchResponse(request, response, result))
      .catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        response.end(messageOf(error));
      });
  };
}
