/**
 * Options of `openApiConnector`: the interfaces users read and their checks and defaults declared against them.
 */
import { InvalidOptionError } from "../../errors.js";
import { declareOptions, option, type ResolvedOf } from "../../shared/options/declare-options.js";
import type { ConnectorApprovalContext, ConnectorMethod, ConnectorRevertContext, ReplayPolicy } from "../types.js";
import type { HttpMethod, OpenApiOperationInfo } from "./collect-operations.js";
import { isRecord } from "../../shared/is-record.js";
import { optionalCallBudget } from "../call-budget-option.js";

/** Headers the host adds to every request (credentials, user agent). */
export type OpenApiHeaders = Record<string, string>;

/** The `fetch` the connector calls host-side. */
export type OpenApiFetch = (input: URL, init: RequestInit) => Promise<Response>;

/** Default replay policy of safe reads: recorded, so replay is deterministic. */
const DEFAULT_OPENAPI_READ_REPLAY: ReplayPolicy = "record";

/** Methods whose calls only read (RFC 9110 safe methods), eligible for `reexecute` by default. */
export const SAFE_METHODS: ReadonlySet<HttpMethod> = new Set<HttpMethod>(["get", "head", "options"]);

function optionalFunction<T>(value: unknown, path: string, expected: string): T | undefined {
  if (value !== undefined && typeof value !== "function")
    throw new InvalidOptionError({ path, message: `must be ${expected}` });
  return value as T | undefined;
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

/**
 * What an operation's method takes: one object with the path, query, header and cookie parameters by name and the
 * request body under `body` (e.g. `{ owner, repo, state, body: { title } }`), validated against the operation's
 * schema before any policy sees it.
 */
type OpenApiOperationArgs = Record<string, unknown>;

/** Policy for one operation, keyed by `operationId` (or the generated method name) in `operations`. */
export interface OpenApiOperationOptions {
  /**
   * Whether a call needs human approval; a function receives the call's arguments.
   * Overrides the connector's `needsApproval` for this operation.
   * @default the connector's `needsApproval`
   */
  needsApproval?:
    | boolean
    | ((args: OpenApiOperationArgs, context?: ConnectorApprovalContext) => boolean | Promise<boolean>);
  /**
   * `record` (journaled result returned on replay) or `reexecute` (the request is sent
   * again on replay, nothing stored). `reexecute` cannot be combined with approval.
   * @default the connector's `replay` for GET/HEAD/OPTIONS without approval, else `"record"`
   */
  replay?: ReplayPolicy;
  /**
   * The operation only reads: journaled without a store round trip of its own (`ConnectorMethod.readOnly`).
   * Cannot be combined with approval.
   * @default true for GET/HEAD/OPTIONS without approval
   */
  readOnly?: boolean;
  /**
   * An approver may run a pending call with changed arguments (approve with changes), validated like the
   * program's (`ConnectorMethod.editable`).
   * @default false
   */
  editable?: boolean;
  /**
   * Compensates an applied call during `rollback`, given its arguments and its response body.
   * @default none (the call stays applied)
   */
  revert?: (args: OpenApiOperationArgs, result: unknown, context: ConnectorRevertContext) => unknown;
  /**
   * What a call with these arguments costs against the runtime's `limits.maxCost` (`ConnectorMethod.cost`).
   * Cannot be combined with `replay: "reexecute"`.
   * @default no cost
   */
  cost?: (args: OpenApiOperationArgs) => number;
  /**
   * Calls of this operation one execution may make, over all its passes (`ConnectorMethod.maxCalls`).
   * @default none
   */
  maxCalls?: number;
}

/** How each key of {@link OpenApiOperationOptions} is checked. */
const OPERATION_OPTIONS = declareOptions<OpenApiOperationOptions>()({
  needsApproval: option((value, path) => {
    if (value !== undefined && typeof value !== "boolean" && typeof value !== "function")
      throw new InvalidOptionError({ path, message: "must be a boolean or a function of the arguments" });
    return value as ConnectorMethod["needsApproval"];
  }),
  replay: option(checkReplay),
  readOnly: option((value): unknown => value),
  editable: option((value, path) => {
    if (value !== undefined && typeof value !== "boolean")
      throw new InvalidOptionError({ path, message: "must be a boolean" });
    return value;
  }),
  revert: option((value, path) =>
    optionalFunction<ConnectorMethod["revert"]>(value, path, "a function (args, result, context) run by rollback"),
  ),
  cost: option((value, path) =>
    optionalFunction<ConnectorMethod["cost"]>(value, path, "a function of the arguments returning a number >= 0"),
  ),
  maxCalls: option((value, path) => {
    optionalCallBudget(value, path);
    return value as number | undefined;
  }),
});

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
   * @default none
   */
  headers?: OpenApiHeaders | ((operation: OpenApiOperationInfo) => OpenApiHeaders | Promise<OpenApiHeaders>);
  /**
   * The host-side `fetch` (an allowlist, a proxy, a test double).
   * @default globalThis.fetch
   */
  fetch?: OpenApiFetch;
  /**
   * Per-operation policy keyed by `operationId` or method name. Unknown keys are an error.
   * @default {}
   */
  operations?: Record<string, OpenApiOperationOptions>;
  /**
   * Whether operations without their own `needsApproval` need a person's approval: `true` for all, or a rule of the
   * operation, e.g. `(op) => op.method !== "get"`.
   * @default false
   */
  needsApproval?: boolean | ((operation: OpenApiOperationInfo) => boolean);
  /**
   * Replay policy of safe reads (GET, HEAD, OPTIONS) that need no approval. Other
   * operations are always `record` unless `operations` says otherwise.
   * @default "record" (a resumed pass sees exactly what the first pass saw)
   */
  replay?: ReplayPolicy;
  /**
   * Keeps only the operations for which this returns true (a large API often needs a few).
   * @default all
   */
  include?: (operation: OpenApiOperationInfo) => boolean;
}

/** How each option of {@link OpenApiConnectorOptions} is checked and defaulted. */
const OPENAPI_OPTIONS = declareOptions<OpenApiConnectorOptions>()({
  spec: option((value, path) => {
    if (value === undefined || value === null)
      throw new InvalidOptionError({ path, message: "is required: an OpenAPI 3 document (object, JSON or YAML text)" });
    return value as string | object;
  }),
  baseUrl: option((value, path) => {
    if (value === undefined) return undefined;
    if (typeof value !== "string")
      throw new InvalidOptionError({ path, message: `must be a string, got ${typeof value}` });
    return checkBaseUrl(value, path);
  }),
  headers: option((value, path): ((operation: OpenApiOperationInfo) => OpenApiHeaders | Promise<OpenApiHeaders>) => {
    if (value === undefined) return () => ({});
    if (typeof value === "function") return value as (operation: OpenApiOperationInfo) => OpenApiHeaders;
    if (!isRecord(value))
      throw new InvalidOptionError({ path, message: "must be an object of strings or a function returning one" });
    const fixed = checkHeaderRecord(value, path);
    return () => fixed;
  }),
  fetch: option((value, path): OpenApiFetch => {
    if (value === undefined) return (input, init) => globalThis.fetch(input, init);
    if (typeof value !== "function")
      throw new InvalidOptionError({ path, message: "must be a function like globalThis.fetch" });
    return value as OpenApiFetch;
  }),
  operations: option((value, path) => {
    if (value === undefined) return {};
    if (!isRecord(value)) throw new InvalidOptionError({ path, message: "must be an object keyed by operationId" });
    const operations: Record<string, OpenApiOperationOptions> = {};
    for (const [key, policy] of Object.entries(value)) {
      if (!isRecord(policy)) throw new InvalidOptionError({ path: `${path}.${key}`, message: "must be an object" });
      OPERATION_OPTIONS.resolve(policy, `${path}.${key}`);
      operations[key] = policy as OpenApiOperationOptions;
    }
    return operations;
  }),
  needsApproval: option((value, path): ((operation: OpenApiOperationInfo) => boolean) => {
    if (typeof value === "function") return value as (operation: OpenApiOperationInfo) => boolean;
    if (value !== undefined && typeof value !== "boolean")
      throw new InvalidOptionError({ path, message: "must be a boolean or a function of the operation" });
    return () => value === true;
  }),
  replay: option((value, path) => checkReplay(value, path) ?? DEFAULT_OPENAPI_READ_REPLAY),
  include: option((value, path): ((operation: OpenApiOperationInfo) => boolean) => {
    if (value === undefined) return () => true;
    if (typeof value !== "function")
      throw new InvalidOptionError({ path, message: "must be a function of the operation" });
    return value as (operation: OpenApiOperationInfo) => boolean;
  }),
});

/** Options after validation, defaults filled. */
export type ResolvedOpenApiConnectorOptions = ResolvedOf<typeof OPENAPI_OPTIONS.fields>;

/** Validates the options (not the document) and fills defaults. Throws `InvalidOptionError`. */
export function resolveOpenApiConnectorOptions(options: OpenApiConnectorOptions): ResolvedOpenApiConnectorOptions {
  if (!isRecord(options)) throw new InvalidOptionError({ path: "options", message: "must be an object with a `spec`" });
  return OPENAPI_OPTIONS.resolve(options, "");
}
