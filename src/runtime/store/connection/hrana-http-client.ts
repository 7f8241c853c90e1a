/**
 * A remote database (Turso, sqld) over the Hrana protocol's HTTP pipeline, on `node:http`/`node:https`.
 *
 * Why not `@libsql/client/http`: importing it also loads the WebSocket transport (`ws`, and through it `https`,
 * `tls` and `zlib`) and its first request starts `fetch`'s undici: on a cold serverless start that cost about as
 * much as importing `ai`, for four requests. The store needs `execute` and `batch` only, each one HTTP request
 * (a stream opened and closed in one pipeline, as `@libsql/client` sends them), so it speaks the protocol itself.
 * Semantics are `@libsql/client`'s: `batch()` is one transaction (`BEGIN IMMEDIATE` for `"write"`,
 * `BEGIN TRANSACTION READONLY` for `"read"`), all or nothing, and rolled back when a step fails; values convert
 * as there (`hrana-values.ts`); an HTTP error carries its `status`, a network failure its system error as `cause`,
 * and an SQL error its SQLite code (what `explainStoreError` reads).
 */
import type * as Http from "node:http";
import type { IncomingMessage, RequestOptions } from "node:http";
import { createRequire } from "node:module";
import type { InStatement, SqlClient, SqlResult } from "./sql-client.js";
import { decodeResult, encodeStatement, type HranaStatement, type HranaStatementResult } from "./hrana-values.js";
import { pipelineUrl } from "./hrana-url.js";
import { DEFAULT_STORE_REQUEST_TIMEOUT_MS, StoreRequestTimeout } from "./store-deadline.js";

/** How much of an HTTP error body is read: more than any message quotes (`store-error-text.ts`). */
const MAX_ERROR_BODY_BYTES = 16 * 1024;

type BatchMode = "write" | "read" | "deferred";

const BEGIN: Record<BatchMode, string> = {
  write: "BEGIN IMMEDIATE",
  read: "BEGIN TRANSACTION READONLY",
  deferred: "BEGIN DEFERRED",
};

type HranaError = { message: string; code?: string | null };
type StreamResult = { type: "ok"; response: { type: string; result?: unknown } } | { type: "error"; error: HranaError };
type BatchResult = { step_results: Array<HranaStatementResult | null>; step_errors: Array<HranaError | null> };
type BatchStep = { stmt: HranaStatement; condition?: unknown };

/** An error the database (or the server in front of it) answered with; `code` is SQLite's when it is an SQL error. */
class HranaRequestError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly status?: number,
  ) {
    super(message);
    this.name = "HranaRequestError";
  }
}

function sqlError({ message, code }: HranaError): HranaRequestError {
  return new HranaRequestError(code ? `${code}: ${message}` : message, code ?? undefined);
}

/**
 * The body of a response; an error page stops at `maxBytes` (a proxy's 1 MB page is not read whole for a message
 * that quotes a few hundred characters of it).
 */
function readBody(response: IncomingMessage, maxBytes = Number.POSITIVE_INFINITY): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const done = () => resolve(Buffer.concat(chunks).toString("utf8"));
    response.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      bytes += chunk.length;
      if (bytes < maxBytes) return;
      response.destroy();
      done();
    });
    response.on("end", done);
    response.on("error", reject);
    // A connection closed before the end (and a destroyed request) settles too, as an error.
    response.on("close", () => {
      if (!response.complete) reject(new Error("The database closed the connection before the answer ended"));
    });
  });
}

/**
 * `require`, not `import()`: an ES module namespace of `node:http` reads every export, and its lazy ones start
 * `fetch`'s undici and TLS, which a plain-HTTP store never uses.
 */
function loadHttp(name: "node:http" | "node:https"): Pick<typeof Http, "request"> {
  return createRequire(import.meta.url)(name) as Pick<typeof Http, "request">;
}

/** The database of one URL; each `execute` or `batch` is one HTTP request. */
export class HranaHttpClient implements SqlClient {
  readonly protocol = "http";
  readonly #pipeline: URL;
  readonly #authToken: string | undefined;
  readonly #requestTimeoutMs: number;
  #closed = false;

  /** `requestTimeoutMs` bounds each request, from sending to the last byte of the answer. */
  constructor(
    url: string,
    authToken: string | undefined,
    { requestTimeoutMs = DEFAULT_STORE_REQUEST_TIMEOUT_MS }: { requestTimeoutMs?: number } = {},
  ) {
    this.#pipeline = pipelineUrl(url);
    this.#authToken = authToken;
    this.#requestTimeoutMs = requestTimeoutMs;
  }

  async execute(statement: InStatement): Promise<SqlResult> {
    const response = await this.#send([{ type: "execute", stmt: encodeStatement(statement) }]);
    return decodeResult(response as { result: HranaStatementResult }["result"]);
  }

  async batch(statements: InStatement[], mode: BatchMode = "deferred"): Promise<SqlResult[]> {
    const steps: BatchStep[] = [{ stmt: { sql: BEGIN[mode], want_rows: false } }];
    for (const statement of statements) {
      steps.push({ stmt: encodeStatement(statement), condition: { type: "ok", step: steps.length - 1 } });
    }
    const commit = steps.length;
    steps.push({ stmt: { sql: "COMMIT", want_rows: false }, condition: { type: "ok", step: commit - 1 } });
    steps.push({
      stmt: { sql: "ROLLBACK", want_rows: false },
      condition: { type: "not", cond: { type: "ok", step: commit } },
    });
    const result = (await this.#send([{ type: "batch", batch: { steps } }])) as BatchResult;
    // The first failed step (the begin, a statement or the commit) is the batch's error; nothing was committed.
    for (let step = 0; step <= commit; step += 1) {
      const error = result.step_errors[step];
      if (error) throw sqlError(error);
    }
    return statements.map((_, index) => {
      const stepResult = result.step_results[index + 1];
      if (!stepResult) throw new HranaRequestError("A statement of the batch was not executed.", undefined);
      return decodeResult(stepResult);
    });
  }

  close(): void {
    this.#closed = true;
  }

  /** Sends one pipeline (the requests, then closing the stream) and returns the first request's result. */
  async #send(requests: unknown[]): Promise<unknown> {
    if (this.#closed) throw new Error("The database connection is closed");
    const text = await this.#post(JSON.stringify({ baton: null, requests: [...requests, { type: "close" }] }));
    let results: StreamResult[];
    try {
      results = (JSON.parse(text) as { results: StreamResult[] }).results;
    } catch {
      throw new HranaRequestError(
        `The database answered with what is not a Hrana response: ${text.slice(0, 200)}`,
        undefined,
      );
    }
    const first = results?.[0];
    if (first === undefined) throw new HranaRequestError("The database answered with no result.", undefined);
    if (first.type === "error") throw sqlError(first.error);
    return first.response.result;
  }

  async #post(body: string): Promise<string> {
    const url = this.#pipeline;
    const { request } = loadHttp(url.protocol === "https:" ? "node:https" : "node:http");
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body)),
    };
    if (this.#authToken !== undefined) headers["authorization"] = `Bearer ${this.#authToken}`;
    const options: RequestOptions = { method: "POST", headers };
    // One deadline for the whole exchange: a server that never answers, or sends headers and never ends the body.
    let outgoing: Http.ClientRequest | undefined;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      outgoing?.destroy(new StoreRequestTimeout(this.#requestTimeoutMs));
    }, this.#requestTimeoutMs);
    timer.unref();
    try {
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        outgoing = request(url, options, resolve);
        outgoing.on("error", (error) =>
          reject(
            timedOut ? error : new Error(`The request to the database failed: ${error.message}`, { cause: error }),
          ),
        );
        outgoing.end(body);
      });
      // A destroyed request ends its response with the same error.
      response.on("error", () => {});
      const status = response.statusCode ?? 0;
      const text = await readBody(response, status === 200 ? undefined : MAX_ERROR_BODY_BYTES).catch(
        (error: unknown) => {
          throw timedOut ? new StoreRequestTimeout(this.#requestTimeoutMs) : error;
        },
      );
      if (status !== 200) throw httpError(status, text);
      return text;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** An HTTP error status with the server's message (JSON `message`, else the body; cut and redacted upstream). */
function httpError(status: number, text: string): HranaRequestError {
  let detail = text.trim();
  try {
    detail = String((JSON.parse(text) as { message?: unknown }).message ?? detail);
  } catch {
    // Not JSON: the body as it is.
  }
  return new HranaRequestError(
    `Server returned HTTP status ${status}${detail === "" ? "" : `: ${detail}`}`,
    "SERVER_ERROR",
    status,
  );
}
