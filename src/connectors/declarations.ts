/**
 * TypeScript declarations of connectors, methods and snippets, as shown by
 * `codemode.describe` and the tool description. Every output is a valid
 * TypeScript declaration file (checked by the tests with the compiler).
 */
import type { JSONSchema7 } from "ai";
import { isRecord } from "../shared/is-record.js";
import { TypeScriptEmitter } from "./json-schema-to-typescript.js";
import { jsDoc, pascalCase, propertyKey } from "./typescript-syntax.js";
import type { Connector, ConnectorMethod } from "./types.js";

/** A saved snippet as the catalog sees it. */
export interface CatalogSnippet {
  name: string;
  description?: string;
  code: string;
  inputSchema?: unknown;
  /** Connectors the snippet uses. */
  connectors: string[];
}

/** Whether an input of this schema may be omitted (an object schema with nothing required). */
function inputIsOptional(schema: unknown): boolean {
  if (schema === undefined) return true;
  if (!isRecord(schema)) return false;
  const required = schema["required"];
  const isObjectSchema = schema["type"] === "object" || isRecord(schema["properties"]);
  return isObjectSchema && (!Array.isArray(required) || required.length === 0) && schema["$ref"] === undefined;
}

/** Doc lines for a method: its description and its approval policy. */
function methodDocLines(method: ConnectorMethod): string[] {
  const lines: string[] = [];
  if (method.description !== undefined) lines.push(method.description);
  if (method.needsApproval === true)
    lines.push('Requires human approval: the run pauses (status "paused") until approved.');
  else if (typeof method.needsApproval === "function")
    lines.push("May require human approval, depending on the input: the run then pauses.");
  return lines;
}

/** One-line type of a schema, without docs (for error messages). */
export function inputTypeOf(schema: JSONSchema7): string {
  const emitter = new TypeScriptEmitter({ docs: false });
  const type = emitter.typeOf(schema, { namePrefix: "" });
  // Collapsed as the emitter writes a short object: `{ a: string; b?: number }`.
  return type.replace(/\n\s*/g, " ").replace(/; }/g, " }");
}

/** The member line(s) of one method inside `declare const name: { ... }`. */
function methodMember(
  emitter: TypeScriptEmitter,
  methodName: string,
  method: ConnectorMethod,
  indent: string,
  prefix: string,
): string {
  const input =
    method.inputSchema === undefined
      ? "unknown"
      : emitter.typeOf(method.inputSchema, { namePrefix: `${prefix}`, indent });
  const output =
    method.outputSchema === undefined
      ? "unknown"
      : emitter.typeOf(method.outputSchema, { namePrefix: `${prefix}Output`, indent });
  const parameter = `input${inputIsOptional(method.inputSchema) ? "?" : ""}: ${input}`;
  return `${jsDoc(methodDocLines(method), indent)}${indent}${propertyKey(methodName)}(${parameter}): Promise<${output}>;`;
}

function connectorDoc(connector: Connector): Array<string | undefined> {
  return [connector.description, connector.instructions];
}

function skippedNote(connector: Connector): string {
  if (connector.skipped === undefined || connector.skipped.length === 0) return "";
  return `\n${connector.skipped.map(({ name, reason }) => `// Not callable from programs: ${name} (${reason})`).join("\n")}`;
}

function withAliases(emitter: TypeScriptEmitter, body: string): string {
  const aliases = emitter.aliases();
  return aliases.length === 0 ? body : `${aliases.join("\n")}\n${body}`;
}

/**
 * In `describe`, a connector declaration larger than this (≈ 6,000 tokens) is
 * replaced by a compact listing: one line per method with its summary, types elided.
 */
export const DEFAULT_CONNECTOR_DECLARATION_MAX_CHARS = 24_000;

function summary(description: string | undefined): string | undefined {
  if (description === undefined) return undefined;
  const line = description.trim().split(/\r?\n/)[0] ?? "";
  return /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
}

/** Methods as one-line signatures with elided types, as many as fit in `maxChars`. */
function compactDeclaration(name: string, connector: Connector, maxChars: number): string {
  const methods = Object.keys(connector.methods);
  const members: string[] = [];
  let used = 0;
  for (const methodName of methods) {
    const method = connector.methods[methodName]!;
    const optional = inputIsOptional(method.inputSchema) ? "?" : "";
    const doc = jsDoc([summary(method.description)], "  ");
    const member = `${doc}  ${propertyKey(methodName)}(input${optional}: object): Promise<unknown>;`;
    if (used + member.length > maxChars) break;
    members.push(member);
    used += member.length + 1;
  }
  const header = jsDoc(
    [
      ...connectorDoc(connector),
      `${methods.length} methods: types elided here; codemode.describe("${name}.<method>") gives a method's input and output types.`,
    ],
    "",
  );
  const rest = methods.length - members.length;
  const tail = rest > 0 ? `\n// …and ${rest} more methods: find them with codemode.search("...").` : "";
  return `${header}declare const ${name}: {\n${members.join("\n")}\n};${tail}${skippedNote(connector)}`;
}

/**
 * `declare const name: { ...every method... };` with JSDoc, aliases for
 * `$ref`s first; `undefined` as soon as it would exceed `maxChars` (building
 * stops there, so a huge connector costs little).
 */
export function fullConnectorDeclaration(
  name: string,
  connector: Connector,
  maxChars = Number.POSITIVE_INFINITY,
): string | undefined {
  const emitter = new TypeScriptEmitter({ reservedNames: [name] });
  const members: string[] = [];
  let size = 0;
  for (const methodName of Object.keys(connector.methods)) {
    const member = methodMember(emitter, methodName, connector.methods[methodName]!, "  ", pascalCase(methodName));
    size += member.length;
    if (size > maxChars) return undefined;
    members.push(member);
  }
  const body = `${jsDoc(connectorDoc(connector), "")}declare const ${name}: {\n${members.join("\n")}\n};${skippedNote(connector)}`;
  const full = withAliases(emitter, body);
  return full.length > maxChars ? undefined : full;
}

/**
 * The connector's full declaration, or past `maxChars` (a connector with
 * hundreds of methods) a compact listing with elided types; `describe` passes
 * `DEFAULT_CONNECTOR_DECLARATION_MAX_CHARS` so it never floods the model's
 * context. @default maxChars Infinity (always the full declaration)
 */
export function connectorDeclaration(name: string, connector: Connector, maxChars = Number.POSITIVE_INFINITY): string {
  return fullConnectorDeclaration(name, connector, maxChars) ?? compactDeclaration(name, connector, maxChars);
}

/**
 * One method: its signature with JSDoc (description, approval policy) and its
 * input and output types written inline, as in the connector's declaration,
 * inside `declare const connector: { ... }`, which carries the connector's
 * `instructions` (so the model reads them when it looks a method up). Named
 * aliases come first only where a schema needs them (`$ref`, recursion); an
 * output without a schema is `unknown`.
 */
export function methodDeclaration(
  connectorName: string,
  methodName: string,
  method: ConnectorMethod,
  { instructions }: { instructions?: string | undefined } = {},
): string {
  const emitter = new TypeScriptEmitter({ reservedNames: [connectorName] });
  const member = methodMember(emitter, methodName, method, "  ", pascalCase(methodName));
  return withAliases(emitter, `${jsDoc([instructions], "")}declare const ${connectorName}: {\n${member}\n};`);
}

/** A snippet: its input type, how to run it, and its code (as comments, so the output stays valid TypeScript). */
export function snippetDeclaration(snippet: CatalogSnippet): string {
  const base = `${pascalCase(snippet.name)}Input`;
  const emitter = new TypeScriptEmitter({ reservedNames: [base] });
  const input =
    snippet.inputSchema === undefined ? "unknown" : emitter.typeOf(snippet.inputSchema, { namePrefix: base });
  const optional = inputIsOptional(snippet.inputSchema) ? ", input?" : ", input";
  const lines = [
    `${jsDoc([snippet.description, `Uses: ${snippet.connectors.join(", ") || "(no connectors)"}`], "")}type ${base} = ${input};`,
    `// Run it: await codemode.run(${JSON.stringify(snippet.name)}${optional}: ${base})`,
    "// Code:",
    ...snippet.code.split(/\r?\n/).map((line) => `//   ${line}`),
  ];
  return withAliases(emitter, lines.join("\n"));
}
