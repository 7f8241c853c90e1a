/**
 * A Hrana-over-HTTP test server: a stand-in for Turso that `@libsql/client`
 * talks to through its real HTTP transport (`http://127.0.0.1:PORT`). It
 * answers `POST /v2/pipeline` and `/v3/pipeline` (JSON) and `/v3/cursor` (a batch
 * streamed as JSON lines, as `@tursodatabase/serverless` reads it), keeps streams open
 * across requests with batons, and runs each stream on its own `libsql`
 * connection to a database file. `databaseUrl(name)` serves further databases
 * (`/db/<name>/v2/pipeline`, the file `<path>.<name>`), so one server can give
 * every test a fresh database. Tests can add latency to every request, fail
 * upcoming requests (connection dropped before running, an HTTP error with the
 * body of their choice, the response lost after the request ran and committed,
 * no answer at all, or headers and then silence), require a bearer token, and
 * count requests. What it covers and what it does not:
 * docs/decisions/hrana-test-server.md.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type Database from "libsql";
import { HranaStream, openConnection, type HranaStreamRequest, type HranaStreamResult } from "./hrana-stream.js";

/** How long an idle stream (one holding a baton) lives before it is closed and rolled back. */
export const DEFAULT_STREAM_IDLE_MS = 10_000;

/** Idle connections kept per database file for the next stream (opening one per request costs a WAL checkpoint on close). */
export const IDLE_CONNECTIONS_PER_DATABASE = 8;

/** A fault applied to one upcoming pipeline request. */
export type HranaFault =
  /** The connection is destroyed before the request runs: nothing happened. */
  | { kind: "drop" }
  /**
   * An HTTP error status before the request runs: nothing happened. `body` is the page (default a short text);
   * a function sees the request (to echo its headers, as some proxies' error pages do).
   */
  | { kind: "status"; status: number; body?: string | ((request: IncomingMessage) => string) }
  /** The request is read and never answered; the connection stays open until the client gives up. */
  | { kind: "silent" }
  /** The request runs, then the status line, headers and part of the body are sent, and nothing more. */
  | { kind: "stall-body" }
  /** The request runs (a batch commits), then the connection is destroyed: the client never learns. */
  | { kind: "lose-response" };

/** Which pipeline requests a fault applies to. */
export interface FaultOptions {
  /** Only requests whose stream requests satisfy this (e.g. contain a batch); default every request. */
  when?: (requests: readonly HranaStreamRequest[]) => boolean;
  /** How many matching requests fail; default 1. */
  times?: number;
}

/** Options of {@link startHranaServer}. */
export interface HranaServerOptions {
  /** The database file (created if missing). */
  path: string;
  /** When set, requests must carry `Authorization: Bearer <token>`; others get 401. */
  authToken?: string;
  /** Added before every pipeline request is handled; can be changed later on the server. */
  latencyMs?: number;
  /** Busy timeout of each stream's connection; default 0 (the server is single-threaded: waiting would block it). */
  busyTimeoutMs?: number;
  /** @default DEFAULT_STREAM_IDLE_MS */
  streamIdleMs?: number;
}

/** Request counts since start (or `resetStats`). */
export interface HranaServerStats {
  /** HTTP pipeline requests: each is one network round trip of the client. */
  pipelines: number;
  /** Stream requests by type (`execute`, `batch`, `store_sql`, `close`, …). */
  requests: Record<string, number>;
  /** Faults applied. */
  faults: number;
}

/** A running server. */
export interface HranaServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  latencyMs: number;
  readonly stats: HranaServerStats;
  /** Streams open across requests (each holds a baton). */
  readonly openStreams: number;
  /** Requests held by a `silent` or `stall-body` fault whose connection the client has not closed yet. */
  readonly unanswered: number;
  /** The URL of another database on this server (`name`: letters, digits, `-`, `_`), backed by the file `<path>.<name>`. */
  databaseUrl(name: string): string;
  resetStats(): void;
  /** Queues a fault for the next matching pipeline request(s). */
  injectFault(fault: HranaFault, options?: FaultOptions): void;
  /** Drops every queued fault (e.g. ends an outage injected with `times: Infinity`). */
  clearFaults(): void;
  /** Closes every stream, connection and the listener. */
  close(): Promise<void>;
}

interface PendingFault {
  fault: HranaFault;
  when: (requests: readonly HranaStreamRequest[]) => boolean;
  remaining: number;
}

interface OpenStream {
  database: string;
  stream: HranaStream;
  timer: NodeJS.Timeout;
}

/** The body of a `/v3/cursor` request: one batch on a stream. */
interface CursorBody {
  baton?: string | null;
  batch: { steps: Array<{ condition?: unknown; stmt: unknown }> };
}

/** A batch's outcome as cursor entries: each step that ran begins, gives its rows and ends, or fails. */
function cursorEntries(result: HranaStreamResult): unknown[] {
  if (result.type === "error") return [{ type: "error", error: result.error }];
  const batch = (result.response as unknown as { result: { step_results: unknown[]; step_errors: unknown[] } }).result;
  const entries: unknown[] = [];
  batch.step_results.forEach((outcome, step) => {
    const error = batch.step_errors[step];
    if (error !== null && error !== undefined) entries.push({ type: "step_error", step, error });
    if (outcome === null || outcome === undefined) return;
    const { cols, rows, affected_row_count, last_insert_rowid } = outcome as {
      cols: unknown[];
      rows: unknown[];
      affected_row_count: number;
      last_insert_rowid: string | null;
    };
    entries.push({ type: "step_begin", step, cols });
    for (const row of rows) entries.push({ type: "row", row });
    entries.push({ type: "step_end", affected_row_count, last_insert_rowid });
  });
  return entries;
}

interface PipelineBody {
  baton?: string | null;
  requests: HranaStreamRequest[];
}

const NAMESPACE = /^[\w-]+$/;
/** `/<endpoint>` or `/db/<name>/<endpoint>`. */
const ROUTE = /^(?:\/db\/([\w-]+))?\/(v2|v3|health|version|v2\/pipeline|v3\/pipeline|v3\/cursor)$/;

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { "content-type": "text/plain", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parsePipeline(text: string): PipelineBody | undefined {
  try {
    const body = JSON.parse(text) as PipelineBody;
    return Array.isArray(body.requests) ? body : undefined;
  } catch {
    return undefined;
  }
}

/** Starts a server on 127.0.0.1 with a free port. */
export async function startHranaServer(options: HranaServerOptions): Promise<HranaServer> {
  const { path, authToken, busyTimeoutMs = 0, streamIdleMs = DEFAULT_STREAM_IDLE_MS } = options;
  const streams = new Map<string, OpenStream>();
  const faults: PendingFault[] = [];
  const sockets = new Set<Socket>();
  const stats: HranaServerStats = { pipelines: 0, requests: {}, faults: 0 };

  const idle = new Map<string, Database.Database[]>();
  /** Responses a fault holds open, until the client closes the connection. */
  const held = new Set<ServerResponse>();
  function hold(response: ServerResponse): void {
    held.add(response);
    response.once("close", () => held.delete(response));
  }
  let closing = false;

  function release(database: string, db: Database.Database): void {
    const pool = idle.get(database) ?? [];
    idle.set(database, pool);
    if (closing || pool.length >= IDLE_CONNECTIONS_PER_DATABASE) db.close();
    else pool.push(db);
  }

  function openStream(database: string): HranaStream {
    let db = idle.get(database)?.pop();
    if (db === undefined) {
      db = openConnection(database, busyTimeoutMs);
      // WAL, as Turso's storage never blocks readers on a writer.
      if (!idle.has(database)) db.exec("PRAGMA journal_mode=WAL");
      idle.set(database, idle.get(database) ?? []);
    }
    return new HranaStream(db, (done) => release(database, done));
  }

  function takeFault(requests: readonly HranaStreamRequest[]): HranaFault | undefined {
    const index = faults.findIndex((pending) => pending.when(requests));
    if (index === -1) return undefined;
    const pending = faults[index]!;
    pending.remaining -= 1;
    if (pending.remaining <= 0) faults.splice(index, 1);
    stats.faults += 1;
    return pending.fault;
  }

  function streamFor(database: string, baton: string | null | undefined): HranaStream | undefined {
    if (baton === undefined || baton === null) return openStream(database);
    const open = streams.get(baton);
    if (open === undefined || open.database !== database) return undefined;
    // A baton is good for one request: the response carries the next one.
    streams.delete(baton);
    clearTimeout(open.timer);
    return open.stream;
  }

  function keepOpen(database: string, stream: HranaStream): string | null {
    if (stream.closed) return null;
    const baton = randomBytes(16).toString("hex");
    const timer = setTimeout(() => {
      streams.delete(baton);
      stream.close();
    }, streamIdleMs);
    timer.unref();
    streams.set(baton, { database, stream, timer });
    return baton;
  }

  function runPipeline(
    database: string,
    body: PipelineBody,
  ): { baton: string | null; results: HranaStreamResult[] } | undefined {
    const stream = streamFor(database, body.baton);
    if (stream === undefined) return undefined;
    const results = body.requests.map((request) => {
      stats.requests[request.type] = (stats.requests[request.type] ?? 0) + 1;
      if (stream.closed)
        return { type: "error" as const, error: { message: "The stream is closed", code: "STREAM_CLOSED" } };
      return stream.handle(request);
    });
    return { baton: keepOpen(database, stream), results };
  }

  async function handlePipeline(database: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = parsePipeline(await readBody(request));
    if (body === undefined) return sendText(response, 400, "Invalid pipeline request body");
    stats.pipelines += 1;
    const latencyMs = server.latencyMs;
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    const fault = takeFault(body.requests);
    if (fault?.kind === "drop") return void request.socket.destroy();
    if (fault?.kind === "silent") return hold(response);
    if (fault?.kind === "status") {
      const { body = "Injected server error" } = fault;
      return sendText(response, fault.status, typeof body === "string" ? body : body(request));
    }
    const outcome = runPipeline(database, body);
    if (outcome === undefined) return sendText(response, 400, "Received an invalid baton");
    if (fault?.kind === "lose-response") return void request.socket.destroy();
    if (fault?.kind === "stall-body") {
      hold(response);
      response.writeHead(200, { "content-type": "application/json", "content-length": 1_000_000 });
      return void response.write('{"baton":null,"base_url":null,"results":[');
    }
    sendJson(response, 200, { baton: outcome.baton, base_url: null, results: outcome.results });
  }

  async function handleCursor(database: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    let body: CursorBody | undefined;
    try {
      body = JSON.parse(await readBody(request)) as CursorBody;
    } catch {
      body = undefined;
    }
    if (body === undefined || !Array.isArray(body.batch?.steps))
      return sendText(response, 400, "Invalid cursor request body");
    stats.pipelines += 1;
    const latencyMs = server.latencyMs;
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    const stream = streamFor(database, body.baton);
    if (stream === undefined) return sendText(response, 400, "Received an invalid baton");
    stats.requests["cursor"] = (stats.requests["cursor"] ?? 0) + 1;
    const result = stream.handle({ type: "batch", batch: body.batch } as HranaStreamRequest);
    const lines = [{ baton: keepOpen(database, stream), base_url: null }, ...cursorEntries(result)];
    const text = lines.map((line) => `${JSON.stringify(line)}\n`).join("");
    response.writeHead(200, { "content-type": "text/plain", "content-length": Buffer.byteLength(text) });
    response.end(text);
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (authToken !== undefined && request.headers.authorization !== `Bearer ${authToken}`) {
      return sendText(response, 401, "Unauthorized: a valid bearer token is required");
    }
    const url = (request.url ?? "/").split("?")[0] ?? "/";
    const matched = ROUTE.exec(url);
    const database = matched?.[1] === undefined ? path : `${path}.${matched[1]}`;
    const endpoint = matched?.[2];
    if (
      request.method === "GET" &&
      (endpoint === "v2" || endpoint === "v3" || endpoint === "health" || endpoint === "version")
    ) {
      return sendText(response, 200, endpoint === "version" ? "hrana-test-server" : "");
    }
    if (request.method === "POST" && (endpoint === "v2/pipeline" || endpoint === "v3/pipeline")) {
      return handlePipeline(database, request, response);
    }
    if (request.method === "POST" && endpoint === "v3/cursor") return handleCursor(database, request, response);
    return sendText(response, 404, `Not found: ${request.method ?? "?"} ${url}`);
  }

  const http = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendText(response, 500, error instanceof Error ? error.message : String(error));
    });
  });
  http.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;

  const server: HranaServer = {
    url: `http://127.0.0.1:${port}`,
    latencyMs: options.latencyMs ?? 0,
    stats,
    get openStreams() {
      return streams.size;
    },
    get unanswered() {
      return held.size;
    },
    databaseUrl(name) {
      if (!NAMESPACE.test(name))
        throw new Error(`Database names are letters, digits, "-" and "_"; got ${JSON.stringify(name)}`);
      return `http://127.0.0.1:${port}/db/${name}/`;
    },
    resetStats() {
      stats.pipelines = 0;
      stats.requests = {};
      stats.faults = 0;
    },
    injectFault(fault, { when = () => true, times = 1 } = {}) {
      faults.push({ fault, when, remaining: times });
    },
    clearFaults() {
      faults.splice(0);
    },
    async close() {
      for (const { stream, timer } of streams.values()) {
        clearTimeout(timer);
        stream.close();
      }
      streams.clear();
      closing = true;
      for (const pool of idle.values()) for (const db of pool.splice(0)) db.close();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
  return server;
}
