/**
 * Options of `openApiConnector`, declared once (type, checks, defaults and docs from one table).
 */
import { InvalidOptionError } from "../../errors.js";
import { declareOptions, option, type OptionsOf, type ResolvedOf } from "../../shared/options/declare-options.js";
import type { ConnectorMethod, ReplayPolicy } from "../types.js";
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

/** Policy for one operation, keyed by `operationId` (or the generated method name) in `operations`. */
const OPERATION_OPTIONS = declareOptions({
  /**
   * Whether a call needs human approval; a function receives the call's arguments.
   * Overrides the connector's `needsApproval` for this operation.
   */
  needsApproval: option<ConnectorMethod["needsApproval"], ConnectorMethod["needsApproval"]>((value, path) => {
    if (value !== undefined && typeof value !== "boolean" && typeof value !== "function")
      throw new InvalidOptionError({ path, message: "must be a boolean or a function of the arguments" });
    return value as ConnectorMethod["needsApproval"];
  }),
  /**
   * `record` (journaled result returned on replay) or `reexecute` (the request is sent
   * again on replay, nothing stored). `reexecute` cannot be combined with approval.
   * @default the connector's `replay` for GET/HEAD/OPTIONS without approval, else `"record"`
   */
  replay: option<ReplayPolicy, ReplayPolicy | undefined>(checkReplay),
  /**
   * The operation only reads: journaled without a store round trip of its own (`ConnectorMethod.readOnly`).
   * Cannot be combined with approval. @default true for GET/HEAD/OPTIONS without approval
   */
  readOnly: option<boolean, unknown>((value) => value),
  /**
   * An approver may run a pending call with changed arguments (approve with changes), validated like the
   * program's (`ConnectorMethod.editable`). @default false
   */
  editable: option<boolean, boolean | undefined>((value, path) => {
    if (value !== undefined && typeof value !== "boolean")
      throw new InvalidOptionError({ path, message: "must be a boolean" });
    return value;
  }),
  /** Compensates an applied call during `rollback`, given its arguments and its response body. @default none */
  revert: option<ConnectorMethod["revert"], ConnectorMethod["revert"]>((value, path) =>
    optionalFunction<ConnectorMethod["revert"]>(value, path, "a function (args, result, context) run by rollback"),
  ),
  /**
   * What a call with these arguments costs against the runtime's `limits.maxCost` (`ConnectorMethod.cost`).
   * Cannot be combined with `replay: "reexecute"`. @default no cost
   */
  cost: option<ConnectorMethod["cost"], ConnectorMethod["cost"]>((value, path) =>
    optionalFunction<ConnectorMethod["cost"]>(value, path, "a function of the arguments returning a number >= 0"),
  ),
  /** Calls of this operation one execution may make, over all its passes (`ConnectorMethod.maxCalls`). @default none */
  maxCalls: option<number, number | undefined>((value, path) => {
    optionalCallBudget(value, path);
    return value as number | undefined;
  }),
});

/** Policy for one operation, keyed by `operationId` (or the generated method name) in `operations`. */
export type OpenApiOperationOptions = OptionsOf<typeof OPERATION_OPTIONS.fields>;

/** The options of `openApiConnector`, declared once: each field's check, default and docs. */
const OPENAPI_OPTIONS = declareOptions({
  /** An OpenAPI 3.0 or 3.1 document: an object, or its JSON or YAML text. Not modified. */
  spec: option<string | object>((value, path) => {
    if (value === undefined || value === null)
      throw new InvalidOptionError({ path, message: "is required: an OpenAPI 3 document (object, JSON or YAML text)" });
    return value as string | object;
  }),
  /**
   * Base URL the operation paths are appended to (its own path is kept:
   * `https://api.example.com/v2`). Replaces the document's `servers`.
   * @default the first `servers` URL of the operation, path item or document (must be absolute)
   */
  baseUrl: option<string, string | undefined>((value, path) => {
    if (value === undefined) return undefined;
    if (typeof value !== "string")
      throw new InvalidOptionError({ path, message: `must be a string, got ${typeof value}` });
    return checkBaseUrl(value, path);
  }),
  /**
   * Headers added host-side to every request (they override header parameters). A
   * function is called before each request (e.g. to refresh a token) with the operation.
   * Programs never see these values: they are not returned, and any echo of a
   * credential-like header (authorization, cookie, *key*, *token*, …) in a response or an
   * error message is replaced by `[redacted]`.
   */
  headers: option<
    OpenApiHeaders | ((operation: OpenApiOperationInfo) => OpenApiHeaders | Promise<OpenApiHeaders>),
    (operation: OpenApiOperationInfo) => OpenApiHeaders | Promise<OpenApiHeaders>
  >((value, path) => {
    if (value === undefined) return () => ({});
    if (typeof value === "function") return value as (operation: OpenApiOperationInfo) => OpenApiHeaders;
    if (!isRecord(value))
      throw new InvalidOptionError({ path, message: "must be an object of strings or a function returning one" });
    const fixed = checkHeaderRecord(value, path);
    return () => fixed;
  }),
  /** The host-side `fetch` (an allowlist, a proxy, a test double). @default globalThis.fetch */
  fetch: option<OpenApiFetch>((value, path) => {
    if (value === undefined) return (input, init) => globalThis.fetch(input, init);
    if (typeof value !== "function")
      throw new InvalidOptionError({ path, message: "must be a function like globalThis.fetch" });
    return value as OpenApiFetch;
  }),
  /** Per-operation policy keyed by `operationId` or method name. Unknown keys are an error. */
  operations: option<Record<string, OpenApiOperationOptions>>((value, path) => {
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
  /**
   * Whether operations without their own `needsApproval` need a person's approval: `true` for all, or a rule of the
   * operation, e.g. `(op) => op.method !== "get"`. @default false
   */
  needsApproval: option<
    boolean | ((operation: OpenApiOperationInfo) => boolean),
    (operation: OpenApiOperationInfo) => boolean
  >((value, path) => {
    if (typeof value === "function") return value as (operation: OpenApiOperationInfo) => boolean;
    if (value !== undefined && typeof value !== "boolean")
      throw new InvalidOptionError({ path, message: "must be a boolean or a function of the operation" });
    return () => value === true;
  }),
  /**
   * Replay policy of safe reads (GET, HEAD, OPTIONS) that need no approval. Other
   * operations are always `record` unless `operations` says otherwise.
   * @default "record" (a resumed pass sees exactly what the first pass saw)
   */
  replay: option<ReplayPolicy>((value, path) => checkReplay(value, path) ?? DEFAULT_OPENAPI_READ_REPLAY),
  /** Keeps only the operations for which this returns true (a large API often needs a few). @default all */
  include: option<(operation: OpenApiOperationInfo) => boolean>((value, path) => {
    if (value === undefined) return () => true;
    if (typeof value !== "function")
      throw new InvalidOptionError({ path, message: "must be a function of the operation" });
    return value as (operation: OpenApiOperationInfo) => boolean;
  }),
});

/** Options of `openApiConnector`. */
export type OpenApiConnectorOptions = OptionsOf<typeof OPENAPI_OPTIONS.fields> & { spec: string | object };

/** Every key of `OpenApiConnectorOptions`: any other is refused (a misspelt policy must not be ignored). */
const OPENAPI_OPTION_KEYS = OPENAPI_OPTIONS.keys;

/** Every key of `OpenApiOperationOptions`. */
const OPENAPI_OPERATION_KEYS = OPERATION_OPTIONS.keys;

/** Options after validation, defaults filled. */
export type ResolvedOpenApiConnectorOptions = ResolvedOf<typeof OPENAPI_OPTIONS.fields>;

/** Validates the options (not the document) and fills defaults. Throws `InvalidOptionError`. */
export function resolveOpenApiConnectorOptions(options: OpenApiConnectorOptions): ResolvedOpenApiConnectorOptions {
  if (!isRecord(options)) throw new InvalidOptionError({ path: "options", message: "must be an object with a `spec`" });
  return OPENAPI_OPTIONS.resolve(options, "");
}
