/**
 * The input of an operation's method: one object holding the path, query, header and
 * cookie parameters by name, plus the request body under `body`, e.g.
 * `{ owner, repo, state, body: { title } }`. Also records how each property is sent.
 */
import type { JSONSchema7 } from "ai";
import { InvalidOptionError } from "../../errors.js";
import { encodingOf, pickMediaType, type BodyEncoding } from "./media-type.js";
import type { SchemaBundler } from "./schema-bundler.js";
import { isRecord } from "../../shared/is-record.js";

/** Where a parameter goes in the request. */
type ParameterLocation = "path" | "query" | "header" | "cookie";

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

/** The request body of an operation and the input property that carries it. */
export interface OpenApiRequestBody {
  /** `body`, or `requestBody` when a parameter is already called `body`. */
  key: string;
  mediaType: string;
  encoding: BodyEncoding;
  required: boolean;
}

const LOCATIONS: readonly ParameterLocation[] = ["path", "query", "header", "cookie"];
const DEFAULT_STYLE: Record<ParameterLocation, string> = {
  path: "simple",
  query: "form",
  header: "simple",
  cookie: "form",
};

type DocRecord = Record<string, unknown>;

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
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
    if (typeof name !== "string" || name === "")
      throw new InvalidOptionError({ path: `${at}.name`, message: "must be a non-empty string" });
    if (!LOCATIONS.includes(where as ParameterLocation)) {
      throw new InvalidOptionError({
        path: `${at}.in`,
        message: `must be one of ${LOCATIONS.join(", ")}, got ${JSON.stringify(where)}`,
      });
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

/** Input properties under construction, and the `$ref`s their schemas reach. */
interface InputShape {
  properties: Record<string, JSONSchema7>;
  required: string[];
  references: Set<string>;
}

function parameterProperties(bundler: SchemaBundler, raw: RawParameter[], shape: InputShape): OpenApiParameter[] {
  const parameters: OpenApiParameter[] = [];
  for (const parameter of raw) {
    const key = Object.hasOwn(shape.properties, parameter.name) ? `${parameter.in}_${parameter.name}` : parameter.name;
    const isRequired = parameter.in === "path" || parameter.source["required"] === true;
    const style =
      typeof parameter.source["style"] === "string" ? parameter.source["style"] : DEFAULT_STYLE[parameter.in];
    const explode = typeof parameter.source["explode"] === "boolean" ? parameter.source["explode"] : style === "form";
    parameters.push({ name: parameter.name, in: parameter.in, key, required: isRequired, style, explode });
    const schema = bundler.convert(parameterSchema(parameter.source), shape.references);
    // Path and query go without saying; a header or cookie says where it goes.
    const where = parameter.in === "path" || parameter.in === "query" ? undefined : `(${parameter.in})`;
    const description = [text(parameter.source["description"]), where].filter((part) => part !== undefined).join(" ");
    shape.properties[key] = withDescription(schema, description === "" ? undefined : description);
    if (isRequired) shape.required.push(key);
  }
  return parameters;
}

function bodyProperty(bundler: SchemaBundler, requestBody: unknown, shape: InputShape): OpenApiRequestBody | undefined {
  if (!isRecord(requestBody) || !isRecord(requestBody["content"])) return undefined;
  const mediaType = pickMediaType(requestBody["content"]);
  if (mediaType === undefined) return undefined;
  const key = Object.hasOwn(shape.properties, "body") ? "requestBody" : "body";
  const media = requestBody["content"][mediaType];
  const encoding = encodingOf(mediaType);
  const body: OpenApiRequestBody = { key, mediaType, encoding, required: requestBody["required"] === true };
  const description = [text(requestBody["description"]), `Request body (${mediaType}).`]
    .filter((part) => part !== undefined)
    .join(" ");
  if (encoding === "binary") {
    shape.properties[key] = { description: `${description} A Uint8Array, ArrayBuffer or string.` };
  } else {
    const schema =
      isRecord(media) && media["schema"] !== undefined ? bundler.convert(media["schema"], shape.references) : {};
    shape.properties[key] = withDescription(schema, description);
  }
  if (body.required) shape.required.push(key);
  return body;
}

/** The input schema of an operation and how each of its properties is sent. */
export function operationInput({
  bundler,
  path,
  location,
  pathItem,
  operation,
}: {
  bundler: SchemaBundler;
  path: string;
  /** `spec.paths["/pets"].get`, for messages. */
  location: string;
  pathItem: DocRecord;
  operation: DocRecord;
}): { parameters: OpenApiParameter[]; body?: OpenApiRequestBody; inputSchema: JSONSchema7 } {
  const raw = mergeParameters(
    readParameters(pathItem["parameters"], `spec.paths[${JSON.stringify(path)}].parameters`),
    readParameters(operation["parameters"], `${location}.parameters`),
  ).sort((a, b) => LOCATIONS.indexOf(a.in) - LOCATIONS.indexOf(b.in));
  const shape: InputShape = { properties: {}, required: [], references: new Set() };
  const parameters = parameterProperties(bundler, raw, shape);
  const body = bodyProperty(bundler, operation["requestBody"], shape);
  const { properties, required, references } = shape;
  const inputSchema = bundler.withDefinitions(
    { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false },
    references,
  );
  return { parameters, ...(body === undefined ? {} : { body }), inputSchema };
}
