/**
 * Walks a parsed document's paths and turns every operation into what a connector method
 * needs: a name, a description, the input schema (`operation-input.ts`), the output schema
 * (`response-schema.ts`) and where to send the request.
 */
import type { JSONSchema7 } from "ai";
import { InvalidOptionError } from "../../errors.js";
import { operationInput, type OpenApiParameter, type OpenApiRequestBody } from "./operation-input.js";
import { operationBaseName, uniqueName } from "./operation-name.js";
import { responseSchema } from "./response-schema.js";
import type { SchemaBundler } from "./schema-bundler.js";
import { isRecord } from "../../shared/is-record.js";

/** HTTP methods an OpenAPI path item can hold. */
/** The HTTP methods an OpenAPI path item can hold operations for. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** An HTTP method, lower case as in the document. */
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** What the `needsApproval` / `include` rules and the `headers` function see of an operation. */
export interface OpenApiOperationInfo {
  /** The method name inside the sandbox (`connector.name(...)`). */
  name: string;
  operationId?: string;
  method: HttpMethod;
  /** The path template, e.g. `/repos/{owner}/{repo}/issues`. */
  path: string;
  summary?: string;
  description?: string;
  tags: string[];
  deprecated: boolean;
}

/** Everything a connector method needs to describe and perform one operation. */
export interface OpenApiOperation {
  info: OpenApiOperationInfo;
  /** Where it sits in the document, for messages: `spec.paths["/pets"].get`. */
  location: string;
  parameters: OpenApiParameter[];
  body?: OpenApiRequestBody;
  /** Media types of the 2xx responses, for the `Accept` header. */
  accept?: string;
  /** The first `servers` entry that applies (operation, path item, document), variables filled with defaults. */
  serverUrl?: string;
  description: string;
  inputSchema: JSONSchema7;
  outputSchema?: JSONSchema7;
}

/** How long the free-text part of an operation's method description may get (not an option: a fixed cut). */
const MAX_OPERATION_DESCRIPTION_CHARS = 300;

type DocRecord = Record<string, unknown>;

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function serverUrlOf(servers: unknown): string | undefined {
  if (!Array.isArray(servers) || !isRecord(servers[0])) return undefined;
  const server = servers[0];
  const url = text(server["url"]);
  if (url === undefined) return undefined;
  const variables = isRecord(server["variables"]) ? server["variables"] : {};
  return url.replace(/\{([^}]+)\}/g, (match, name: string) => {
    const variable = variables[name];
    return isRecord(variable) && typeof variable["default"] === "string" ? variable["default"] : match;
  });
}

/** Summary, the start of the description, and the HTTP line: what search and describe show. */
function describeOperation(operation: DocRecord, method: HttpMethod, path: string, deprecated: boolean): string {
  const summary = text(operation["summary"]);
  let detail = text(operation["description"]);
  if (detail !== undefined && detail.length > MAX_OPERATION_DESCRIPTION_CHARS) {
    const cut = detail.slice(0, MAX_OPERATION_DESCRIPTION_CHARS);
    const boundary = Math.max(cut.lastIndexOf("\n\n"), cut.lastIndexOf(". "));
    detail = `${boundary > MAX_OPERATION_DESCRIPTION_CHARS / 2 ? cut.slice(0, boundary + 1) : cut}…`;
  }
  const parts: string[] = [];
  if (deprecated) parts.push("Deprecated.");
  if (summary !== undefined) parts.push(summary);
  if (detail !== undefined && detail !== summary) parts.push(detail);
  parts.push(`${method.toUpperCase()} ${path}`);
  return parts.join("\n\n");
}

interface BuildContext {
  bundler: SchemaBundler;
  takenNames: Set<string>;
  document: DocRecord;
}

function buildOperation(
  { bundler, takenNames, document }: BuildContext,
  {
    path,
    method,
    pathItem,
    operation,
  }: { path: string; method: HttpMethod; pathItem: DocRecord; operation: DocRecord },
): OpenApiOperation {
  const location = `spec.paths[${JSON.stringify(path)}].${method}`;
  const operationId = text(operation["operationId"]);
  const deprecated = operation["deprecated"] === true;
  const summary = text(operation["summary"]);
  const detail = text(operation["description"]);
  const info: OpenApiOperationInfo = {
    name: uniqueName(operationBaseName({ operationId, method, path }), takenNames),
    ...(operationId === undefined ? {} : { operationId }),
    method,
    path,
    ...(summary === undefined ? {} : { summary }),
    ...(detail === undefined ? {} : { description: detail }),
    tags: Array.isArray(operation["tags"])
      ? operation["tags"].filter((tag): tag is string => typeof tag === "string")
      : [],
    deprecated,
  };

  const { parameters, body, inputSchema } = operationInput({ bundler, path, location, pathItem, operation });
  const { outputSchema, accept } = responseSchema(bundler, operation["responses"]);
  const serverUrl =
    serverUrlOf(operation["servers"]) ?? serverUrlOf(pathItem["servers"]) ?? serverUrlOf(document["servers"]);
  return {
    info,
    location,
    parameters,
    ...(body === undefined ? {} : { body }),
    ...(accept === undefined ? {} : { accept }),
    ...(serverUrl === undefined ? {} : { serverUrl }),
    description: describeOperation(operation, method, path, deprecated),
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
  };
}

/** Every operation of the document, in document order, with unique method names. */
export function collectOperations(document: DocRecord, bundler: SchemaBundler): OpenApiOperation[] {
  const paths = isRecord(document["paths"]) ? document["paths"] : {};
  const context: BuildContext = { bundler, takenNames: new Set(), document };
  const operations: OpenApiOperation[] = [];
  for (const [path, pathItem] of Object.entries(paths)) {
    if (path.startsWith("x-")) continue;
    if (!path.startsWith("/")) {
      throw new InvalidOptionError({ path: `spec.paths[${JSON.stringify(path)}]`, message: "must start with /" });
    }
    if (!isRecord(pathItem)) {
      throw new InvalidOptionError({
        path: `spec.paths[${JSON.stringify(path)}]`,
        message: "must be a path item object",
      });
    }
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (operation === undefined) continue;
      if (!isRecord(operation)) {
        throw new InvalidOptionError({
          path: `spec.paths[${JSON.stringify(path)}].${method}`,
          message: "must be an operation object",
        });
      }
      try {
        operations.push(buildOperation(context, { path, method, pathItem, operation }));
      } catch (error) {
        if (InvalidOptionError.isInstance(error)) throw error;
        throw new InvalidOptionError({
          path: `spec.paths[${JSON.stringify(path)}].${method}`,
          message: `cannot be read: ${(error as Error).message}`,
          cause: error,
        });
      }
    }
  }
  return operations;
}
