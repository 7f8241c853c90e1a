/**
 * `openApiConnector`: an OpenAPI 3.0 / 3.1 document becomes a `Connector` with one method
 * per operation. Calls are made host-side with the host's `fetch` and credentials.
 */
import type { MethodPolicy } from "../tool-set-connector.js";
import { InvalidOptionError } from "../../errors.js";
import { closestName } from "../../shared/closest-name.js";
import { Validator } from "@cfworker/json-schema";
import { createSyncJsonSchemaValidator } from "../argument-validator.js";
import { OpenApiRequestError } from "../../errors/openapi-request-error.js";
import { RedirectError } from "../../errors/redirect-error.js";
import { fetchFollowingRedirects } from "../follow-redirects.js";
import { messageOf } from "../../shared/message-of.js";
import type { Connector, ConnectorCallContext, ConnectorMethod, ReplayPolicy } from "../types.js";
import { UnsafeRequestError } from "../../errors/unsafe-request-error.js";
import { buildRequest, type BuiltRequest } from "./build-request.js";
import { collectOperations, type OpenApiOperation } from "./collect-operations.js";
import { readOnlyOf } from "../tool-set-connector.js";
import { costNotOnReexecute } from "../call-budget-option.js";
import {
  checkBaseUrl,
  resolveOpenApiConnectorOptions,
  SAFE_METHODS,
  type OpenApiConnectorOptions,
  type ResolvedOpenApiConnectorOptions,
} from "./openapi-connector-options.js";
import { parseOpenApiDocument } from "./parse-openapi-document.js";
import { readResponse } from "./read-response.js";
import { collectSecrets, redactText } from "./redact-secrets.js";
import { createSchemaBundler } from "./schema-bundler.js";
import { isRecord } from "../../shared/is-record.js";

/** How much of the API's own description the connector description keeps. */
const DEFAULT_CONNECTOR_DESCRIPTION_MAX_CHARS = 300;

const INSTRUCTIONS =
  "Each method sends one HTTP request. Pass one object: path, query and header parameters as " +
  "properties named like the parameter, and the request body (when the operation has one) under " +
  "`body`, e.g. `{ owner, repo, state, body: { title } }`. The result is the parsed response body. " +
  "A non-2xx response rejects with an error giving the HTTP status and the start of the response body.";

function connectorDescription(document: Record<string, unknown>): string | undefined {
  const info = isRecord(document["info"]) ? document["info"] : {};
  const title = typeof info["title"] === "string" ? info["title"].trim() : "";
  const version = typeof info["version"] === "string" ? ` (version ${info["version"]})` : "";
  let about = typeof info["description"] === "string" ? info["description"].trim().split(/\n\s*\n/)[0]! : "";
  if (about.length > DEFAULT_CONNECTOR_DESCRIPTION_MAX_CHARS)
    about = `${about.slice(0, DEFAULT_CONNECTOR_DESCRIPTION_MAX_CHARS)}…`;
  const text = [title === "" ? "" : `${title}${version}.`, about].filter((part) => part !== "").join(" ");
  return text === "" ? undefined : text;
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

/** Replay and approval of one operation from the per-operation policy, the rule and the defaults. */
function policyFor(
  operation: OpenApiOperation,
  options: ResolvedOpenApiConnectorOptions,
): {
  key: string | undefined;
  needsApproval: NonNullable<ConnectorMethod["needsApproval"]>;
  replay: ReplayPolicy;
  readOnly: boolean;
  /** The method policy keys the operation's entry in `operations` sets beyond approval and replay. */
  extra: Pick<ConnectorMethod, "editable" | "revert" | "cost" | "maxCalls">;
} {
  const { info } = operation;
  const key = [info.operationId, info.name].find(
    (candidate) => candidate !== undefined && Object.hasOwn(options.operations, candidate),
  );
  // Its callbacks are typed for the operation's arguments: the runtime calls them with what `validate` returned (an
  // object), so they fit a method's `(args: unknown)`.
  const policy = (key === undefined ? {} : options.operations[key]!) as MethodPolicy;
  const needsApproval = policy.needsApproval ?? options.needsApproval(info);
  const approves = needsApproval !== false;
  const replay = policy.replay ?? (SAFE_METHODS.has(info.method) && !approves ? options.replay : "record");
  if (replay === "reexecute" && approves) {
    throw new InvalidOptionError({
      path: `operations.${key ?? info.name}.replay`,
      message: `cannot be "reexecute" for ${info.method.toUpperCase()} ${info.path}: it requires approval, and an approved call must run exactly once`,
    });
  }
  const readOnly = readOnlyOf({
    label: `${info.method.toUpperCase()} ${info.path}`,
    explicit: policy.readOnly,
    byDefault: SAFE_METHODS.has(info.method),
    needsApproval,
    policyPath: `operations.${key ?? info.name}`,
  });
  costNotOnReexecute(policy.cost, replay, `operations.${key ?? info.name}.cost`);
  const extra: Pick<ConnectorMethod, "editable" | "revert" | "cost" | "maxCalls"> = {};
  if (policy.editable === true) extra.editable = true;
  if (policy.revert !== undefined) extra.revert = policy.revert;
  if (policy.cost !== undefined) extra.cost = policy.cost;
  if (policy.maxCalls !== undefined) extra.maxCalls = policy.maxCalls;
  return { key, needsApproval, replay, readOnly, extra };
}

/**
 * Sends one built request with the host's headers and reads the response. Redirects are followed hop by
 * hop; the host's headers (credentials) go to the request's own origin only.
 */
async function send(
  operation: OpenApiOperation,
  options: ResolvedOpenApiConnectorOptions,
  request: BuiltRequest,
  context: ConnectorCallContext,
): Promise<unknown> {
  const { info } = operation;
  const label = `${info.method.toUpperCase()} ${info.path}`;
  const origin = request.url.origin;
  let hostHeaders: Record<string, string>;
  try {
    hostHeaders = lowerCaseKeys(await options.headers(info));
  } catch (error) {
    // The host's message may quote a credential: keep it as the cause, out of the program's sight.
    throw new OpenApiRequestError({
      operation: label,
      failure: "headers",
      message: "was not sent: the host could not provide its request headers",
      cause: error,
    });
  }
  const secrets = collectSecrets(hostHeaders);
  const signal = context?.abortSignal;
  let response: Response;
  try {
    ({ response } = await fetchFollowingRedirects({
      fetch: (input, init) => options.fetch(new URL(input), init),
      url: request.url,
      method: info.method.toUpperCase(),
      body: request.body,
      // Credentials go to the configured origin only; a redirect elsewhere gets the request's own headers.
      headersFor: (hop) => (hop.url.origin === origin ? { ...request.headers, ...hostHeaders } : request.headers),
      signal,
    }));
  } catch (error) {
    if (signal?.aborted === true) {
      const message = "was aborted before the server answered";
      throw new OpenApiRequestError({ operation: label, failure: "aborted", message, cause: error });
    }
    if (RedirectError.isInstance(error)) {
      const message = `was not completed: ${redactText(error.message, secrets)}`;
      throw new OpenApiRequestError({ operation: label, failure: "redirect", message });
    }
    const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : messageOf(error);
    const message = `could not reach the server: ${redactText(reason, secrets)}`;
    throw new OpenApiRequestError({ operation: label, failure: "unreachable", message, cause: error });
  }
  return readResponse(response, { operation: label, secrets });
}

function methodFor(operation: OpenApiOperation, options: ResolvedOpenApiConnectorOptions): ConnectorMethod {
  const { info } = operation;
  const label = `${info.method.toUpperCase()} ${info.path}`;
  const baseUrl = options.baseUrl ?? operation.serverUrl;
  if (baseUrl === undefined || !/^https?:\/\//i.test(baseUrl)) {
    throw new InvalidOptionError({
      path: "baseUrl",
      message:
        baseUrl === undefined
          ? `is required: the document declares no server for ${label}`
          : `is required: the document's server URL ${JSON.stringify(baseUrl)} for ${label} is not absolute`,
    });
  }
  checkBaseUrl(baseUrl, options.baseUrl === undefined ? `${operation.location}.servers[0].url` : "baseUrl");
  const { needsApproval, replay, readOnly, extra } = policyFor(operation, options);
  const validate = createSyncJsonSchemaValidator(Validator, operation.inputSchema, { label: info.name });
  return {
    description: operation.description,
    inputSchema: operation.inputSchema,
    ...(operation.outputSchema === undefined ? {} : { outputSchema: operation.outputSchema }),
    validate: (args) => {
      const checked = validate(args ?? {});
      if (!checked.success) return checked;
      // Refused before anything is asked or sent: the request must stay on the operation's path.
      try {
        buildRequest(operation, isRecord(checked.value) ? checked.value : {}, baseUrl);
      } catch (error) {
        if (error instanceof UnsafeRequestError) return { success: false, error: error.message };
        throw error;
      }
      return checked;
    },
    needsApproval,
    replay,
    ...(readOnly ? { readOnly } : {}),
    ...extra,
    describeRequest(args) {
      const checked = validate(args ?? {});
      if (!checked.success || !isRecord(checked.value)) return undefined;
      try {
        return { method: info.method.toUpperCase(), url: buildRequest(operation, checked.value, baseUrl).url.href };
      } catch {
        return undefined;
      }
    },
    execute: async (args: unknown, context: ConnectorCallContext) =>
      send(operation, options, buildRequest(operation, isRecord(args) ? args : {}, baseUrl), context),
  };
}

/**
 * Turns an OpenAPI 3.0 / 3.1 document into a connector: one method per operation, named
 * from `operationId` (identifier-friendly: `issues/list-for-repo` → `issues_list_for_repo`)
 * or from method and path when absent (`GET /pets/{petId}` → `get_pets_by_petId`).
 *
 * A method takes one object: path, query and header parameters as properties named like
 * the parameter (`${in}_${name}` if two locations share a name), plus the request body under
 * `body` (`requestBody` if a parameter is called `body`): `{ owner, repo, state, body: { title } }`.
 * It resolves with the parsed 2xx response body and rejects with an `OpenApiResponseError`
 * (status and a short body excerpt) otherwise. Schemas are plain JSON Schema 2020-12 with
 * `$defs`; `$ref`s are resolved with `@apidevtools/json-schema-ref-parser`, cycles included.
 *
 * Calls run host-side with `fetch` and `headers`; the program never sees the credentials.
 * Reads are recorded by default (deterministic replay); `replay: "reexecute"` makes
 * GET/HEAD/OPTIONS without approval run again on replay instead. Each entry of `operations` takes the
 * method policy keys of `connector()` (`needsApproval`, `readOnly`, `replay`, `editable`, `revert`, `cost`,
 * `maxCalls`).
 *
 * Rejects with `InvalidOptionError` (naming the option or document path) for bad options
 * or a bad document.
 *
 * @example
 * ```ts
 * import { openApiConnector } from "ai-codemode/openapi";
 * const tracker = await openApiConnector({
 *   spec: readFileSync("tracker.yaml", "utf8"),
 *   baseUrl: "https://tracker.example.com/api",
 *   headers: async () => ({ authorization: `Bearer ${await getToken()}` }),
 *   needsApproval: (op) => op.method !== "get",
 *   operations: { createIssue: { editable: true, revert: (_args, issue) => closeIssue(issue) } },
 * });
 * const runtime = createCodemodeRuntime({ connectors: { tracker } });
 * ```
 */
export async function openApiConnector(options: OpenApiConnectorOptions): Promise<Connector> {
  const resolved = resolveOpenApiConnectorOptions(options);
  const parsed = await parseOpenApiDocument(resolved.spec);
  const bundler = createSchemaBundler({ version: parsed.version, resolvePointer: parsed.resolvePointer });
  const operations = collectOperations(parsed.document, bundler);
  if (operations.length === 0) throw new InvalidOptionError({ path: "spec.paths", message: "defines no operations" });

  const known = new Set(
    operations.flatMap(({ info }) => [info.name, ...(info.operationId === undefined ? [] : [info.operationId])]),
  );
  for (const key of Object.keys(resolved.operations)) {
    if (known.has(key)) continue;
    const suggestion = closestName(key, known);
    throw new InvalidOptionError({
      path: `operations.${key}`,
      message: `does not match any operationId or method name in the document${suggestion === undefined ? "" : ` (did you mean "${suggestion}"?)`}`,
    });
  }

  const methods: Record<string, ConnectorMethod> = Object.create(null) as Record<string, ConnectorMethod>;
  for (const operation of operations) {
    if (!resolved.include(operation.info)) continue;
    methods[operation.info.name] = methodFor(operation, resolved);
  }
  if (Object.keys(methods).length === 0)
    throw new InvalidOptionError({ path: "include", message: "kept none of the document's operations" });

  const description = connectorDescription(parsed.document);
  return { ...(description === undefined ? {} : { description }), instructions: INSTRUCTIONS, methods };
}
