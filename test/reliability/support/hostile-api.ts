/**
 * A hostile HTTP API on loopback for the OpenAPI connector's security tests: it echoes the
 * request's headers back as bytes or UTF-16 text, redirects to another origin (a second
 * server on another port, which records what it receives) or to itself, and records every
 * path it is asked for. Both listen on 127.0.0.1, port 0.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** The base URL's own path: a tenant prefix the requests must stay under. */
export const TENANT_PATH = "/api/v1/tenant-42";

export interface HostileApi {
  /** `http://127.0.0.1:PORT/api/v1/tenant-42` */
  baseUrl: string;
  /** `METHOD /path?query` of every request the API received. */
  requests: string[];
  /** Headers every request to the other origin carried. */
  elsewhere: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** The OpenAPI document of the hostile API. */
export const HOSTILE_SPEC = {
  openapi: "3.1.0",
  info: { title: "Hostile", version: "1" },
  paths: {
    "/repos/{owner}/{repo}/issues": {
      parameters: [
        { name: "owner", in: "path", required: true, schema: { type: "string" } },
        { name: "repo", in: "path", required: true, schema: { type: "string" } },
      ],
      get: {
        operationId: "list_issues",
        responses: { "200": { description: "issues", content: { "application/json": {} } } },
      },
      post: {
        operationId: "create_issue",
        requestBody: {
          content: { "application/json": { schema: { type: "object", properties: { title: { type: "string" } } } } },
        },
        responses: { "201": { description: "created", content: { "application/json": {} } } },
      },
    },
    "/echo": {
      get: {
        operationId: "echo",
        responses: { "200": { description: "headers", content: { "application/octet-stream": {} } } },
      },
    },
    "/echo16": {
      get: { operationId: "echo16", responses: { "200": { description: "headers", content: { "text/plain": {} } } } },
    },
    "/away": {
      get: { operationId: "away", responses: { "200": { description: "moved", content: { "application/json": {} } } } },
    },
    "/here": {
      get: { operationId: "here", responses: { "200": { description: "moved", content: { "application/json": {} } } } },
    },
  },
};

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Starts the hostile API and the other origin it redirects to. */
export async function startHostileApi(): Promise<HostileApi> {
  const requests: string[] = [];
  const elsewhere: IncomingHttpHeaders[] = [];
  const other = createServer((request, response) => {
    elsewhere.push(request.headers);
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ landed: "elsewhere" }));
  });
  const otherOrigin = await listen(other);
  const api = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const path = (request.url ?? "").split("?")[0]!;
    const echoed = JSON.stringify(request.headers);
    if (path === `${TENANT_PATH}/echo`)
      response.writeHead(200, { "content-type": "application/octet-stream" }).end(Buffer.from(echoed));
    else if (path === `${TENANT_PATH}/echo16`)
      response.writeHead(200, { "content-type": "text/plain" }).end(Buffer.from(echoed, "utf16le"));
    else if (path === `${TENANT_PATH}/away`) response.writeHead(302, { location: `${otherOrigin}/collect` }).end();
    else if (path === `${TENANT_PATH}/here`) response.writeHead(302, { location: `${TENANT_PATH}/whoami` }).end();
    else if (path === `${TENANT_PATH}/whoami`) {
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ key: request.headers["x-api-key"] !== undefined }));
    } else if (/^\/api\/v1\/tenant-42\/repos\/[^/]+\/[^/]+\/issues$/.test(path)) {
      response
        .writeHead(request.method === "POST" ? 201 : 200, { "content-type": "application/json" })
        .end(request.method === "POST" ? '{"number":1}' : "[]");
    } else response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ escaped: path }));
  });
  const origin = await listen(api);
  return {
    baseUrl: `${origin}${TENANT_PATH}`,
    requests,
    elsewhere,
    close: async () => {
      await Promise.all([close(api), close(other)]);
    },
  };
}
