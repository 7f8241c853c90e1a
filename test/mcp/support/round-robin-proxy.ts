/**
 * A load balancer on loopback as a serverless host has one: each HTTP request goes to the next
 * instance in turn (no stickiness, no session affinity), so consecutive requests of one client
 * reach different processes. Bodies and responses (Server-Sent Events included) are streamed
 * through; `served` counts the requests each instance got so a test can show both answered, and
 * `requests` says which instance got each request, in order.
 */
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobinProxy {
  /** The proxy's URL with the instances' path (e.g. `http://127.0.0.1:PORT/mcp`). */
  url: string;
  /** Requests forwarded to each instance, in the order of `targets`. */
  served: number[];
  /** Every request forwarded, in order: the instance (index in `targets`) and the HTTP method. */
  requests: Array<{ instance: number; method: string }>;
  close(): Promise<void>;
}

/** Starts the proxy in front of `targets` (absolute URLs of the instances, same path on each). */
export async function startRoundRobinProxy(targets: string[]): Promise<RoundRobinProxy> {
  if (targets.length === 0) throw new Error("startRoundRobinProxy needs at least one target");
  const upstreams = targets.map((target) => new URL(target));
  const served = targets.map(() => 0);
  const requests: RoundRobinProxy["requests"] = [];
  let next = 0;

  const relay = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    const index = next;
    next = (next + 1) % upstreams.length;
    served[index] = (served[index] ?? 0) + 1;
    requests.push({ instance: index, method: incoming.method ?? "GET" });
    const upstream = upstreams[index] as URL;
    const headers = { ...incoming.headers, host: upstream.host };
    const out = forward(
      { hostname: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    out.on("error", (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { "content-type": "text/plain" });
      outgoing.end(`instance ${index} failed: ${error.message}`);
    });
    // A client that goes away (e.g. closes an SSE stream) closes the forwarded request too.
    outgoing.on("close", () => out.destroy());
    incoming.pipe(out);
  };

  const server = createServer(relay);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const first = upstreams[0] as URL;
  return {
    url: `http://127.0.0.1:${port}${first.pathname}`,
    served,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
