/**
 * Options of `openApiConnector`, their defaults, and their validation.
 */
import { InvalidOptionError } from "../../errors.js";
import { assertKnownKeys, keysOf } from "../../shared/known-keys.js";
import type { ConnectorMethod, ReplayPolicy } from "../types.js";
import type { HttpMethod, OpenApiOperationInfo } from "./collect-operations.js";
import { isRecord } from "../../shared/is-record.js";

/** Headers the host adds to every request (credentials, user agent). */
export type OpenApiHeaders = Record<string, string>;

/** The `fetch` the connector calls host-side. */
export type OpenApiFetch = (input: URL, init: RequestInit) => Promise<Response>;

/** Policy for one operation, keyed by `operationId` (or the generated method name) in `operations`. */
export interface OpenApiOperationOptions {
  /**
   * Whether a call needs human approval; a function receives the call's arguments.
   * Overrides the `needsApproval` rule for this operation.
   */
  needsApproval?: ConnectorMethod["needsApproval"];
  /**
   * `record` (journaled result returned on replay) or `reexecute` (the request is sent
   * again on replay, nothing stored). `reexecute` cannot be combined with approval.
   * @default the connector's `replay` for GET/HEAD/OPTIONS without approval, else `"record"`
   */
  replay?: ReplayPolicy;
  /**
   * The operation only reads: journaled without a store round trip of its own (`ConnectorMethod.readOnly`).
   * Cannot be combined with approval. @default true for GET/HEAD/OPTIONS without approval
   */
  readOnly?: boolean;
}

/** Options of `openApiConnector`. */
export interface OpenApiConnectorOptions {
  /** An OpenAPI 3.0 or 3.1 document: an object, or its JSON or YAML text. Not modified. */
  spec: string | object;
  /**
   * Base URL the operation paths are appended to (its own path is kept:
   * `https://api.example.com/v2`). Replaces the document's `servers`.
   * @default the first `servers` URL of the operation, path item or document (must be absolute)
   */
  baseUrl?: string;
  /**
   * Headers added host-side to every request (they override header parameters). A
   * function is called before each request (e.g. to refresh a token) with the operation.
   * Programs never see these values: they are not returned, and any echo of a
   * credential-like header (authorization, cookie, *key*, *token*, …) in a response or an
   * error message is replaced by `[redacted]`.
   */
  headers?: OpenApiHeaders | ((operation: OpenApiOperationInfo) => OpenApiHeaders | Promise<OpenApiHeaders>);
  /** The host-side `fetch` (an allowlist, a proxy, a test double). @default globalThis.fetch */
  fetch?: OpenApiFetch;
  /** Per-operation policy keyed by `operationId` or method name. Unknown keys are an error. */
  operations?: Record<string, OpenApiOperationOptions>;
  /**
   * Whether operations without their own `needsApproval` need a person's approval: `true` for all, or a rule of the
   * operation, e.g. `(op) => op.method !== "get"`. @default false
   */
  needsApproval?: boolean | ((operation: OpenApiOperationInfo) => boolean);
  /**
   * Replay policy of safe reads (GET, HEAD, OPTIONS) that need no approval. Other
   * operations are always `record` unless `operations` says otherwise.
   * @default "record" (a resumed pass sees exactly what the first pass saw)
   */
  replay?: ReplayPolicy;
  /** Keeps only the operations for which this returns true (a large API often needs a few). @default all */
  include?: (operation: OpenApiOperationInfo) => boolean;
}

/** Every key of `OpenApiConnectorOptions`: any other is refused (a misspelt policy must not be ignored). */
export const OPENAPI_OPTION_KEYS = keysOf<OpenApiConnectorOptions>({
  spec: true,
  baseUrl: true,
  headers: true,
  fetch: true,
  operations: true,
  needsApproval: true,
  replay: true,
  include: true,
});

/** Every key of `OpenApiOperationOptions`. */
export const OPENAPI_OPERATION_KEYS = keysOf<OpenApiOperationOptions>({
  needsApproval: true,
  replay: true,
  readOnly: true,
});

/** Default replay policy of safe reads: recorded, so replay is deterministic. */
export const DEFAULT_OPENAPI_READ_REPLAY: ReplayPolicy = "record";

/** Methods whose calls only read (RFC 9110 safe methods), eligible for `reexecute` by default. */
export const SAFE_METHODS: ReadonlySet<HttpMethod> = new Set<HttpMethod>(["get", "head", "options"]);

/** Options after validation, defaults filled. */
export interface ResolvedOpenApiConnectorOptions {
  spec: string | object;
  baseUrl: string | undefined;
  headers: (operation: OpenApiOperationInfo) => OpenApiHeaders | Promise<OpenApiHeaders>;
  fetch: OpenApiFetch;
  operations: Record<string, OpenApiOperationOptions>;
  needsApproval: (operation: OpenApiOperationInfo) => boolean;
  replay: ReplayPolicy;
  include: (operation: OpenApiOperationInfo) => boolean;
}

function checkReplay(value: unknown, path: string): ReplayPolicy | undefined {
  if (value === undefined) return undefined;
  if (value !== "record" && value !== "reexecute") {
    throw new InvalidOptionError({ path, message: `must be "record" or "reexecute", got ${JSON.stringify(value)}` });
  }
  return value;
}

/** Checks an absolute http(s) URL. */
export function checkBaseUrl(value: string, path: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidOptionError({ path, message: `must be an absolute http(s) URL, got ${JSON.stringify(value)}` });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidOptionError({ path, message: `must be an http(s) URL, got ${JSON.stringify(value)}` });
  }
  return value;
}

function checkHeaderRecord(headers: Record<string, unknown>, path: string): OpenApiHeaders {
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== "string") {
      throw new InvalidOptionError({ path: `${path}.${name}`, message: `must be a string, got ${typeof value}` });
    }
  }
  return headers as OpenApiHeaders;
}

/** Validates the options (not the document) and fills defaults. Throws `InvalidOptionError`. */
export function resolveOpenApiConnectorOptions(options: OpenApiConnectorOptions): ResolvedOpenApiConnectorOptions {
  if (!isRecord(options)) throw new InvalidOptionError({ path: "options", message: "must be an object with a `spec`" });
  assertKnownKeys(options, OPENAPI_OPTION_KEYS, "options");
  const { spec, baseUrl, headers, fetch, operations, needsApproval, replay, include } = options;
  if (spec === undefined || spec === null) {
    throw new InvalidOptionError({
      path: "spec",
      message: "is required: an OpenAPI 3 document (object, JSON or YAML text)",
    });
  }
  if (baseUrl !== undefined && typeof baseUrl !== "string") {
    throw new InvalidOptionError({ path: "baseUrl", message: `must be a string, got ${typeof baseUrl}` });
  }
  let resolvedHeaders: ResolvedOpenApiConnectorOptions["headers"];
  if (headers === undefined) resolvedHeaders = () => ({});
  else if (typeof headers === "function") resolvedHeaders = headers;
  else if (isRecord(headers)) {
    const fixed = checkHeaderRecord(headers, "headers");
    resolvedHeaders = () => fixed;
  } else
    throw new InvalidOptionError({
      path: "headers",
      message: "must be an object of strings or a function returning one",
    });
  if (fetch !== undefined && typeof fetch !== "function") {
    throw new InvalidOptionError({ path: "fetch", message: "must be a function like globalThis.fetch" });
  }
  const fallbackFetch: OpenApiFetch = (input, init) => globalThis.fetch(input, init);
  if (operations !== undefined && !isRecord(operations)) {
    throw new InvalidOptionError({ path: "operations", message: "must be an object keyed by operationId" });
  }
  for (const [key, policy] of Object.entries(operations ?? {})) {
    if (!isRecord(policy)) throw new InvalidOptionError({ path: `operations.${key}`, message: "must be an object" });
    assertKnownKeys(policy, OPENAPI_OPERATION_KEYS, `operations.${key}`);
    const approval = policy["needsApproval"];
    if (approval !== undefined && typeof approval !== "boolean" && typeof approval !== "function") {
      throw new InvalidOptionError({
        path: `operations.${key}.needsApproval`,
        message: "must be a boolean or a function of the arguments",
      });
    }
    checkReplay(policy["replay"], `operations.${key}.replay`);
  }
  if (needsApproval !== undefined && typeof needsApproval !== "boolean" && typeof needsApproval !== "function")
    throw new InvalidOptionError({
      path: "needsApproval",
      message: "must be a boolean or a function of the operation",
    });
  if (include !== undefined && typeof include !== "function")
    throw new InvalidOptionError({ path: "include", message: "must be a function of the operation" });
  return {
    spec,
    baseUrl: baseUrl === undefined ? undefined : checkBaseUrl(baseUrl, "baseUrl"),
    headers: resolvedHeaders,
    fetch: fetch ?? fallbackFetch,
    operations: operations ?? {},
    needsApproval: typeof needsApproval === "function" ? needsApproval : () => needsApproval === true,
    replay: checkReplay(replay, "replay") ?? DEFAULT_OPENAPI_READ_REPLAY,
    include: include ?? (() => true),
  };
}
