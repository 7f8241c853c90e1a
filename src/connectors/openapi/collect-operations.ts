/**
 * Walks a parsed document's paths and turns every operation into what a connector method
 * needs: a name, a description, the input schema (parameters by name plus the request body
 * under `body`), the output schema (2xx responses) and how to build the HTTP request.
 */
import type { JSONSchema7 } from "@ai-sdk/provider";
import { InvalidOptionError } from "../../errors.js";
import { operationBaseName, uniqueName } from "./operation-name.js";
import type { SchemaBundler } from "./schema-bundler.js";

/** HTTP methods an OpenAPI path item can hold. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** An HTTP method, lower case as in the document. */
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** What the `requireApproval` / `include` rules and the `headers` function see of an operation. */
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

/** Where a parameter goes in the request. */
export type ParameterLocation = "path" | "query" | "header" | "cookie";

/** A parameter of an operation and the input property that carries it. */
export interface OpenApiParameter {
  name: string;
  in: ParameterLocation;
  /** Property of the input object: the parameter name, or `${in}_${name}` when two locations share a name. */
  key: string;
  required: boolean;
  style: string;
  explode: boolean;
}

/** How a request body is encoded. */
export type BodyEncoding = "json" | "form" | "multipart" | "text" | "binary";

/** The request body of an operation and the input property that carries it. */
export interface OpenApiRequestBody {
  /** `body`, or `requestBody` when a parameter is already called `body`. */
  key: string;
  mediaType: string;
  encoding: BodyEncoding;
  required: boolean;
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

/** How long the free-text part of a method description may get. */
export const DEFAULT_DESCRIPTION_MAX_CHARS = 300;

const LOCATIONS: readonly ParameterLocation[] = ["path", "query", "header", "cookie"];
const DEFAULT_STYLE: Record<ParameterLocation, string> = { path: "simple", query: "form", header: "simple", cookie: "form" };

type DocRecord = Record<string, unknown>;

function isRecord(value: unknown): value is DocRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** `application/json; charset=utf-8` → its encoding; JSON wins for `*\/*` and `+json` types. */
export function encodingOf(mediaType: string): BodyEncoding {
  const type = mediaType.split(";")[0]!.trim().toLowerCase();
  if (type === "application/json" || type.endsWith("+json") || type.includes("/json") || type === "*/*") return "json";
  if (type === "application/x-www-form-urlencoded") return "form";
  if (type.startsWith("multipart/")) return "multipart";
  if (type.startsWith("text/") || type.endsWith("+xml") || type === "application/xml") return "text";
  return "binary";
}

const ENCODING_PREFERENCE: readonly BodyEncoding[] = ["json", "form", "multipart", "text", "binary"];

/** Picks the media type to send or to read: JSON first, then forms, text, binary. */
function pickMediaType(content: DocRecord): string | undefined {
  const types = Object.keys(content);
  for (const encoding of ENCODING_PREFERENCE) {
    const found = types.find((type) => encodingOf(type) === encoding);
    if (found !== undefined) return found;
  }
  return undefined;
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
  if (detail !== undefined && detail.length > DEFAULT_DESCRIPTION_MAX_CHARS) {
    const cut = detail.slice(0, DEFAULT_DESCRIPTION_MAX_CHARS);
    const boundary = Math.max(cut.lastIndexOf("\n\n"), cut.lastIndexOf(". "));
    detail = `${boundary > DEFAULT_DESCRIPTION_MAX_CHARS / 2 ? cut.slice(0, boundary + 1) : cut}…`;
  }
  const parts: string[] = [];
  if (deprecated) parts.push("Deprecated.");
  if (summary !== undefined) parts.push(summary);
  if (detail !== undefined && detail !== summary) parts.push(detail);
  parts.push(`${method.toUpperCase()} ${path}`);
  return parts.join("\n\n");
}

interface RawParameter {
  name: string;
  in: ParameterLocation;
  source: DocRecord;
}

function readParameters(list: unknown, location: string): RawParameter[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new InvalidOptionError({ path: location, message: "must be an array of parameters" });
  return list.map((parameter, index) => {
    const at = `${location}[${index}]`;
    if (!isRecord(parameter)) throw new InvalidOptionError({ path: at, message: "must be a parameter object" });
    const name = parameter["name"];
    const where = parameter["in"];
    if (typeof name !== "string" || name === "") throw new InvalidOptionError({ path: `${at}.name`, message: "must be a non-empty string" });
    if (!LOCATIONS.includes(where as ParameterLocation)) {
      throw new InvalidOptionError({ path: `${at}.in`, message: `must be one of ${LOCATIONS.join(", ")}, got ${JSON.stringify(where)}` });
    }
    return { name, in: where as ParameterLocation, source: parameter };
  });
}

/** Operation parameters override path-item parameters with the same name and location. */
function mergeParameters(pathLevel: RawParameter[], operationLevel: RawParameter[]): RawParameter[] {
  const merged = new Map<string, RawParameter>();
  for (const parameter of [...pathLevel, ...operationLevel]) merged.set(`${parameter.in}:${parameter.name}`, parameter);
  return [...merged.values()];
}

function parameterSchema(parameter: DocRecord): unknown {
  if (parameter["schema"] !== undefined) return parameter["schema"];
  if (isRecord(parameter["content"])) {
    const media = Object.values(parameter["content"])[0];
    if (isRecord(media) && media["schema"] !== undefined) return media["schema"];
  }
  return {};
}

function withDescription(schema: JSONSchema7, description: string | undefined): JSONSchema7 {
  if (description === undefined || typeof schema !== "object") return schema;
  return { ...schema, description };
}

interface BuildContext {
  bundler: SchemaBundler;
  takenNames: Set<string>;
  document: DocRecord;
}

function buildOperation(
  { bundler, takenNames, document }: BuildContext,
  { path, method, pathItem, operation }: { path: string; method: HttpMethod; pathItem: DocRecord; operation: DocRecord },
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
    tags: Array.isArray(operation["tags"]) ? operation["tags"].filter((tag): tag is string => typeof tag === "string") : [],
    deprecated,
  };

  const raw = mergeParameters(
    readParameters(pathItem["parameters"], `spec.paths[${JSON.stringify(path)}].parameters`),
    readParameters(operation["parameters"], `${location}.parameters`),
  ).sort((a, b) => LOCATIONS.indexOf(a.in) - LOCATIONS.indexOf(b.in));

  const references = new Set<string>();
  const properties: Record<string, JSONSchema7> = {};
  const required: string[] = [];
  const parameters: OpenApiParameter[] = [];
  const seenNames = new Set(raw.map((parameter) => parameter.name));
  const usedKeys = new Set<string>();
  for (const parameter of raw) {
    const clash = usedKeys.has(parameter.name);
    const key = clash ? `${parameter.in}_${parameter.name}` : parameter.name;
    usedKeys.add(key);
    const isRequired = parameter.in === "path" || parameter.source["required"] === true;
    const style = typeof parameter.source["style"] === "string" ? parameter.source["style"] : DEFAULT_STYLE[parameter.in];
    const explode = typeof parameter.source["explode"] === "boolean" ? parameter.source["explode"] : style === "form";
    parameters.push({ name: parameter.name, in: parameter.in, key, required: isRequired, style, explode });
    const schema = bundler.convert(parameterSchema(parameter.source), references);
    const where = parameter.in === "path" || parameter.in === "query" ? "" : ` (${parameter.in})`;
    const description = text(parameter.source["description"]);
    properties[key] = withDescription(schema, description === undefined ? (where === "" ? undefined : where.trim()) : `${description}${where}`);
    if (isRequired) required.push(key);
  }

  let body: OpenApiRequestBody | undefined;
  const requestBody = operation["requestBody"];
  if (isRecord(requestBody) && isRecord(requestBody["content"])) {
    const mediaType = pickMediaType(requestBody["content"]);
    if (mediaType !== undefined) {
      const key = seenNames.has("body") ? "requestBody" : "body";
      const media = requestBody["content"][mediaType];
      const encoding = encodingOf(mediaType);
      body = { key, mediaType, encoding, required: requestBody["required"] === true };
      const mediaSchema = isRecord(media) && media["schema"] !== undefined ? bundler.convert(media["schema"], references) : {};
      const bodyDescription = [text(requestBody["description"]), `Request body (${mediaType}).`]
        .filter((part) => part !== undefined)
        .join(" ");
      properties[key] =
        encoding === "binary"
          ? { description: `${bodyDescription} A Uint8Array, ArrayBuffer or string.` }
          : withDescription(mediaSchema, bodyDescription);
      if (body.required) required.push(key);
    }
  }

  const inputSchema = bundler.withDefinitions(
    { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false },
    references,
  );

  const { outputSchema, accept } = responseSchema(bundler, operation["responses"]);
  const serverUrl = serverUrlOf(operation["servers"]) ?? serverUrlOf(pathItem["servers"]) ?? serverUrlOf(document["servers"]);
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

/** Output schema from the 2xx responses (one schema, or `anyOf` of several) and their media types. */
function responseSchema(
  bundler: SchemaBundler,
  responses: unknown,
): { outputSchema?: JSONSchema7; accept?: string } {
  if (!isRecord(responses)) return {};
  const references = new Set<string>();
  const schemas: JSONSchema7[] = [];
  const mediaTypes = new Set<string>();
  const codes = Object.keys(responses)
    .filter((code) => /^2(\d\d|XX)$/i.test(code))
    .sort();
  for (const code of codes) {
    const response = responses[code];
    if (!isRecord(response) || !isRecord(response["content"])) continue;
    const mediaType = pickMediaType(response["content"]);
    if (mediaType === undefined) continue;
    mediaTypes.add(mediaType);
    const media = response["content"][mediaType];
    if (!isRecord(media) || media["schema"] === undefined) continue;
    const encoding = encodingOf(mediaType);
    const schema: JSONSchema7 =
      encoding === "json"
        ? bundler.convert(media["schema"], references)
        : encoding === "text"
          ? { type: "string" }
          : { description: "Uint8Array (binary response body)" };
    const description = text(response["description"]);
    const described = withDescription(schema, description);
    if (!schemas.some((existing) => JSON.stringify(existing) === JSON.stringify(described))) schemas.push(described);
  }
  const accept = mediaTypes.size > 0 ? [...mediaTypes].join(", ") : undefined;
  if (schemas.length === 0) return accept === undefined ? {} : { accept };
  const root: JSONSchema7 = schemas.length === 1 ? schemas[0]! : { anyOf: schemas };
  return { outputSchema: bundler.withDefinitions(root, references), ...(accept === undefined ? {} : { accept }) };
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
      throw new InvalidOptionError({ path: `spec.paths[${JSON.stringify(path)}]`, message: "must be a path item object" });
    }
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (operation === undefined) continue;
      if (!isRecord(operation)) {
        throw new InvalidOptionError({ path: `spec.paths[${JSON.stringify(path)}].${method}`, message: "must be an operation object" });
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
