/**
 * Normalises what a user passes as a connector (a hand-written `Connector`, an
 * AI SDK `ToolSet`, `await mcpClient.tools()`) into a validated `Connector`
 * with null-prototype `methods`. Every problem is an `InvalidOptionError`
 * naming `connectors.<name>...`.
 */
import type { ToolSet } from "ai";
import { isRecord } from "../shared/is-record.js";
import { InvalidOptionError } from "../errors.js";
import { createJsonSchemaValidator } from "./argument-validator.js";
import { costNotOnReexecute, optionalCallBudget } from "./call-budget-option.js";
import { buildConnector, wrappedSource } from "./connector.js";
import { inputTypeOf } from "./declarations.js";
import { readOnlyOf, toolSetToConnector } from "./tool-set-connector.js";
import type { Connector, ConnectorMethod } from "./types.js";
import { HOST_NAMESPACE } from "../shared/host-namespace.js";
import { assertNoRenamedKeys } from "../shared/known-keys.js";

/**
 * Names a connector cannot take: the sandbox's own globals, the host namespace
 * the preludes use, and the `snippets.` prefix used by search paths.
 */
const RESERVED_CONNECTOR_NAMES: ReadonlySet<string> = new Set([
  "codemode",
  HOST_NAMESPACE,
  "snippets",
  "console",
  "globalThis",
  "undefined",
  "NaN",
  "Infinity",
  "eval",
  "Object",
  "Function",
  "Array",
  "Number",
  "String",
  "Boolean",
  "Symbol",
  "BigInt",
  "Math",
  "JSON",
  "Date",
  "RegExp",
  "Error",
  "TypeError",
  "RangeError",
  "SyntaxError",
  "ReferenceError",
  "EvalError",
  "URIError",
  "AggregateError",
  "Promise",
  "Proxy",
  "Reflect",
  "Map",
  "Set",
  "WeakMap",
  "WeakSet",
  "WeakRef",
  "FinalizationRegistry",
  "ArrayBuffer",
  "SharedArrayBuffer",
  "DataView",
  "Atomics",
  "Int8Array",
  "Uint8Array",
  "Uint8ClampedArray",
  "Int16Array",
  "Uint16Array",
  "Int32Array",
  "Uint32Array",
  "Float32Array",
  "Float64Array",
  "BigInt64Array",
  "BigUint64Array",
  "parseInt",
  "parseFloat",
  "isNaN",
  "isFinite",
  "encodeURI",
  "decodeURI",
  "encodeURIComponent",
  "decodeURIComponent",
  "escape",
  "unescape",
]);

/** JavaScript reserved words (never usable as a global binding name). */
const RESERVED_WORDS: ReadonlySet<string> = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "yield let static implements interface package private protected public await arguments"
  ).split(" "),
);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Throws unless `name` can be a global namespace inside the sandbox. */
function assertConnectorName(name: string, path: string): void {
  if (!IDENTIFIER.test(name)) {
    throw new InvalidOptionError({
      path,
      message: `is not a valid connector name: "${name}" must be a JavaScript identifier (letters, digits, _ and $; not starting with a digit), e.g. "github"`,
    });
  }
  if (RESERVED_WORDS.has(name) || RESERVED_CONNECTOR_NAMES.has(name)) {
    throw new InvalidOptionError({
      path,
      message: `uses the reserved name "${name}"; choose another global name, e.g. "${name}Api"`,
    });
  }
}

/**
 * Whether a value is a hand-written `Connector` rather than a `ToolSet`: it has
 * a `methods` record that is not itself a tool (a tool named `methods` has an
 * `inputSchema` or `execute` of its own).
 */
export function isConnector(value: unknown): value is Connector {
  if (!isRecord(value) || !Object.hasOwn(value, "methods")) return false;
  const methods = value["methods"];
  if (!isRecord(methods) || Array.isArray(methods)) return false;
  return !("inputSchema" in methods) && typeof methods["execute"] !== "function";
}

function optionalFunction(value: unknown, path: string): void {
  if (value !== undefined && typeof value !== "function") {
    throw new InvalidOptionError({ path, message: "must be a function" });
  }
}

/** A string (blank allowed: a description may be empty) or omitted. */
function stringOrOmitted(value: unknown, path: string): void {
  if (value !== undefined && typeof value !== "string") {
    throw new InvalidOptionError({ path, message: "must be a string" });
  }
}

function optionalSchema(value: unknown, path: string): void {
  if (value !== undefined && (typeof value !== "object" || value === null || Array.isArray(value))) {
    throw new InvalidOptionError({ path, message: "must be a JSON Schema object" });
  }
}

/** Validates one hand-written method and returns a copy (adding a JSON Schema validator when it has none). */
function resolveMethod(connectorName: string, methodName: string, value: unknown, path: string): ConnectorMethod {
  if (!isRecord(value)) throw new InvalidOptionError({ path, message: "must be an object with an execute function" });
  if (typeof value["execute"] !== "function") {
    throw new InvalidOptionError({ path: `${path}.execute`, message: "must be a function (args, context) => result" });
  }
  assertNoRenamedKeys(value, ["needsApproval"], path);
  stringOrOmitted(value["description"], `${path}.description`);
  optionalSchema(value["inputSchema"], `${path}.inputSchema`);
  optionalSchema(value["outputSchema"], `${path}.outputSchema`);
  optionalFunction(value["validate"], `${path}.validate`);
  optionalFunction(value["revert"], `${path}.revert`);
  optionalFunction(value["describeRequest"], `${path}.describeRequest`);
  optionalFunction(value["cost"], `${path}.cost`);
  optionalCallBudget(value["maxCalls"], `${path}.maxCalls`);
  costNotOnReexecute(value["cost"], value["replay"], `${path}.cost`);
  const approval = value["needsApproval"];
  if (approval !== undefined && typeof approval !== "boolean" && typeof approval !== "function") {
    throw new InvalidOptionError({
      path: `${path}.needsApproval`,
      message: "must be a boolean or a function of the arguments",
    });
  }
  const replay = value["replay"];
  if (replay !== undefined && replay !== "record" && replay !== "reexecute") {
    throw new InvalidOptionError({ path: `${path}.replay`, message: `must be "record" or "reexecute"` });
  }
  if (replay === "reexecute" && approval !== undefined && approval !== false) {
    throw new InvalidOptionError({
      path: `${path}.replay`,
      message:
        `is "reexecute" but the method requires approval: an approved action must be recorded so it runs once. ` +
        `Use replay: "record" (the default) or drop needsApproval.`,
    });
  }
  const readOnly = readOnlyOf({
    label: `${connectorName}.${methodName}`,
    explicit: value["readOnly"],
    byDefault: false,
    needsApproval: approval as ConnectorMethod["needsApproval"],
    policyPath: path,
  });
  const editable = value["editable"];
  if (editable !== undefined && typeof editable !== "boolean") {
    throw new InvalidOptionError({ path: `${path}.editable`, message: "must be a boolean" });
  }
  const source = value as unknown as ConnectorMethod;
  const method: ConnectorMethod = { execute: source.execute.bind(source) };
  if (readOnly) method.readOnly = true;
  if (editable === true) method.editable = true;
  if (source.description !== undefined) method.description = source.description;
  if (source.inputSchema !== undefined) method.inputSchema = source.inputSchema;
  if (source.outputSchema !== undefined) method.outputSchema = source.outputSchema;
  if (source.validate !== undefined) method.validate = source.validate.bind(source);
  if (source.needsApproval !== undefined) {
    method.needsApproval =
      typeof source.needsApproval === "function" ? source.needsApproval.bind(source) : source.needsApproval;
  }
  if (source.replay !== undefined) method.replay = source.replay;
  if (source.revert !== undefined) method.revert = source.revert.bind(source);
  if (source.describeRequest !== undefined) method.describeRequest = source.describeRequest.bind(source);
  if (source.maxCalls !== undefined) method.maxCalls = source.maxCalls;
  if (source.cost !== undefined) method.cost = source.cost.bind(source);
  if (method.validate === undefined && method.inputSchema !== undefined) {
    const schema = method.inputSchema;
    method.validate = createJsonSchemaValidator(schema, {
      label: `${connectorName}.${methodName}`,
      expectedType: () => inputTypeOf(schema),
    });
  }
  return method;
}

/** Validates a hand-written connector and returns a copy with null-prototype `methods`. */
function resolveHandWritten(name: string, value: Connector, path: string): Connector {
  stringOrOmitted(value.description, `${path}.description`);
  stringOrOmitted(value.instructions, `${path}.instructions`);
  optionalFunction(value.onPassEnd, `${path}.onPassEnd`);
  optionalFunction(value.disposeExecution, `${path}.disposeExecution`);
  const methods = Object.create(null) as Record<string, ConnectorMethod>;
  for (const methodName of Object.keys(value.methods)) {
    methods[methodName] = resolveMethod(name, methodName, value.methods[methodName], `${path}.methods.${methodName}`);
  }
  const connector: Connector = { methods };
  if (value.description !== undefined) connector.description = value.description;
  if (value.instructions !== undefined) connector.instructions = value.instructions;
  if (value.skipped !== undefined) connector.skipped = [...value.skipped];
  if (value.onPassEnd !== undefined) connector.onPassEnd = value.onPassEnd.bind(value);
  if (value.disposeExecution !== undefined) connector.disposeExecution = value.disposeExecution.bind(value);
  return connector;
}

/**
 * Turns a connector option into a validated `Connector`.
 *
 * - A hand-written `Connector` (or the result of `connector()`) is validated and copied.
 * - An AI SDK `ToolSet`, including `await mcpClient.tools()`, is converted: one
 *   method per tool with an `execute`; the others are listed in `skipped`.
 *
 * Throws `InvalidOptionError` with path `connectors.<name>` (or `tools` for the
 * global `tools` namespace) for unusable input.
 *
 * @example
 * const github = resolveConnector("github", await githubMcp.tools());
 */
export function resolveConnector(name: string, value: ToolSet | Connector): Connector {
  const path = name === "tools" ? "tools" : `connectors.${name}`;
  assertConnectorName(name, path);
  if (!isRecord(value) || Array.isArray(value) || typeof value === "function") {
    throw new InvalidOptionError({
      path,
      message:
        "must be an AI SDK ToolSet (e.g. { search: tool({...}) } or await mcpClient.tools()) or a Connector ({ methods })",
    });
  }
  const wrapped = wrappedSource(value);
  if (wrapped !== undefined) return buildConnector(name, wrapped.tools, wrapped.options, path);
  if (isConnector(value)) return resolveHandWritten(name, value, path);
  return toolSetToConnector({ name, tools: value as Record<string, unknown>, path });
}
