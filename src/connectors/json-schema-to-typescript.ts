/**
 * JSON Schema → TypeScript type expressions, small enough for serverless
 * bundles (the `json-schema-to-typescript` package pulls in a formatter and a
 * `$ref` resolver over the network). Covers what tool schemas use: objects,
 * required/optional, enums and consts, unions (`anyOf`/`oneOf`), `allOf`,
 * nullable (`type: [..., "null"]` and OpenAPI's `nullable`), arrays and tuples
 * (`prefixItems`, array `items`), records (`additionalProperties`,
 * `patternProperties`), local `$ref` including recursion (as named type
 * aliases), and descriptions as JSDoc. Anything it cannot express is `unknown`.
 */
import { isRecord } from "../shared/is-record.js";
import { jsDoc, pascalCase, propertyKey, schemaDocLines } from "./typescript-syntax.js";

type JsonObject = Record<string, unknown>;

/** Nesting beyond this depth is rendered `unknown` (guards pathological schemas). */
const MAX_DEPTH = 32;

/**
 * An object without JSDoc whose members fit in this many characters is written
 * on one line (`{ user_id: string; team?: string }`), as a formatter would:
 * as clear, and a line per member costs the reader more than it tells.
 */
const ONE_LINE_OBJECT_MAX_CHARS = 60;

function literal(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return JSON.stringify(value);
  return "unknown";
}

function union(members: string[]): string {
  const unique = [...new Set(members)];
  if (unique.includes("unknown")) return "unknown";
  const kept = unique.filter((member) => member !== "never");
  if (kept.length === 0) return "never";
  return kept.length === 1 ? kept[0]! : kept.join(" | ");
}

function needsParens(type: string): boolean {
  // A top-level `|` or `&` (outside brackets/braces/strings) needs parentheses in array/intersection position.
  let depth = 0;
  let quote: string | undefined;
  for (let index = 0; index < type.length; index++) {
    const char = type[index]!;
    if (quote !== undefined) {
      if (char === "\\") index++;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === "{" || char === "[" || char === "(" || char === "<") depth++;
    else if (char === "}" || char === "]" || char === ")" || char === ">") depth--;
    else if (depth === 0 && (char === "|" || char === "&")) return true;
  }
  return false;
}

function wrap(type: string): string {
  return needsParens(type) ? `(${type})` : type;
}

function decodePointerSegment(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Emits TypeScript for schemas that share one set of named aliases (for `$ref` targets). */
export class TypeScriptEmitter {
  private readonly aliasesByRoot = new WeakMap<object, Map<string, string>>();
  private readonly declarations: string[] = [];
  private readonly usedNames = new Set<string>();

  private readonly withDocs: boolean;

  /**
   * `reservedNames`: identifiers aliases must not take (other declarations in the same output).
   * `docs`: emit descriptions as JSDoc. @default true
   */
  constructor({ reservedNames = [], docs = true }: { reservedNames?: Iterable<string>; docs?: boolean } = {}) {
    for (const name of reservedNames) this.usedNames.add(name);
    this.withDocs = docs;
  }

  private doc(schema: unknown, indent: string): string {
    return this.withDocs ? jsDoc(schemaDocLines(schema), indent) : "";
  }

  /** Alias declarations created so far (`type Name = ...;`), in creation order. */
  aliases(): string[] {
    return [...this.declarations];
  }

  /** Reserves and returns a fresh identifier based on `base`. */
  uniqueName(base: string): string {
    let name = base;
    for (let counter = 2; this.usedNames.has(name); counter++) name = `${base}${counter}`;
    this.usedNames.add(name);
    return name;
  }

  /**
   * The TypeScript type of `schema`. `root` resolves local `$ref`s
   * (`#/definitions/X`, `#/$defs/X`, `#`); `namePrefix` prefixes alias names;
   * `indent` is the indentation of the line the type starts on.
   */
  typeOf(
    schema: unknown,
    { root = schema, namePrefix = "", indent = "" }: { root?: unknown; namePrefix?: string; indent?: string } = {},
  ): string {
    return this.convert(schema, { root, namePrefix, indent, depth: 0, visiting: new Set(), directRefs: new Set() });
  }

  private convert(schema: unknown, context: ConvertContext): string {
    if (schema === true || schema === undefined) return "unknown";
    if (schema === false) return "never";
    if (!isRecord(schema) || context.depth > MAX_DEPTH || context.visiting.has(schema)) return "unknown";
    const inner: ConvertContext = {
      ...context,
      depth: context.depth + 1,
      visiting: new Set(context.visiting).add(schema),
    };
    const parts: string[] = [];
    if (typeof schema["$ref"] === "string") parts.push(this.reference(schema["$ref"], inner));
    const base = this.baseType(schema, inner);
    if (base !== undefined) parts.push(base);
    if (Array.isArray(schema["allOf"])) {
      for (const member of schema["allOf"]) parts.push(this.convert(member, inner));
    }
    for (const key of ["anyOf", "oneOf"] as const) {
      const members = schema[key];
      if (Array.isArray(members) && members.length > 0)
        parts.push(union(members.map((member) => this.convert(member, inner))));
    }
    let type = intersection(parts);
    if (schema["nullable"] === true && type !== "unknown" && type !== "null") type = union([type, "null"]);
    return type;
  }

  /** The type from `const`, `enum` and `type` (and the keywords of each type), or `undefined` if none applies. */
  private baseType(schema: JsonObject, context: ConvertContext): string | undefined {
    if (schema["const"] !== undefined) return literal(schema["const"]);
    if (Array.isArray(schema["enum"])) return union(schema["enum"].map(literal));
    const declared = schema["type"];
    const types = Array.isArray(declared)
      ? declared.filter((t): t is string => typeof t === "string")
      : typeof declared === "string"
        ? [declared]
        : [];
    if (types.length === 0) {
      if (
        isRecord(schema["properties"]) ||
        schema["additionalProperties"] !== undefined ||
        isRecord(schema["patternProperties"])
      ) {
        return this.objectType(schema, context);
      }
      if (schema["items"] !== undefined || Array.isArray(schema["prefixItems"])) return this.arrayType(schema, context);
      return undefined;
    }
    return union(types.map((type) => this.namedType(type, schema, context)));
  }

  private namedType(type: string, schema: JsonObject, context: ConvertContext): string {
    switch (type) {
      case "string":
        return "string";
      case "number":
      case "integer":
        return "number";
      case "boolean":
        return "boolean";
      case "null":
        return "null";
      case "array":
        return this.arrayType(schema, context);
      case "object":
        return this.objectType(schema, context);
      default:
        return "unknown";
    }
  }

  private arrayType(schema: JsonObject, outer: ConvertContext): string {
    const context: ConvertContext = { ...outer, directRefs: new Set() };
    const tuple = Array.isArray(schema["prefixItems"])
      ? schema["prefixItems"]
      : Array.isArray(schema["items"])
        ? schema["items"]
        : undefined;
    if (tuple !== undefined) {
      const rest = Array.isArray(schema["prefixItems"]) ? schema["items"] : schema["additionalItems"];
      const minItems = typeof schema["minItems"] === "number" ? schema["minItems"] : tuple.length;
      const members = tuple.map((item, index) => {
        const type = this.convert(item, context);
        return index < minItems ? type : `${wrap(type)}?`;
      });
      if (rest !== undefined && rest !== false) members.push(`...${wrap(this.convert(rest, context))}[]`);
      return `[${members.join(", ")}]`;
    }
    const item = this.convert(schema["items"], context);
    return `${wrap(item)}[]`;
  }

  private objectType(schema: JsonObject, outer: ConvertContext): string {
    const context: ConvertContext = { ...outer, directRefs: new Set() };
    const properties = isRecord(schema["properties"]) ? schema["properties"] : {};
    const required = new Set(
      Array.isArray(schema["required"]) ? schema["required"].filter((r): r is string => typeof r === "string") : [],
    );
    const inner = `${context.indent}  `;
    const lines: string[] = [];
    for (const name of Object.keys(properties)) {
      const propertySchema = properties[name];
      const type = this.convert(propertySchema, { ...context, indent: inner });
      const doc = this.doc(propertySchema, inner);
      lines.push(`${doc}${inner}${propertyKey(name)}${required.has(name) ? "" : "?"}: ${type};`);
    }
    for (const name of required) {
      if (!Object.hasOwn(properties, name)) lines.push(`${inner}${propertyKey(name)}: unknown;`);
    }
    const extra: string[] = [];
    const additional = schema["additionalProperties"];
    if (
      additional !== undefined &&
      additional !== false &&
      !(additional === true && Object.keys(properties).length > 0)
    ) {
      extra.push(this.convert(additional, { ...context, indent: inner }));
    }
    if (isRecord(schema["patternProperties"])) {
      for (const pattern of Object.values(schema["patternProperties"]))
        extra.push(this.convert(pattern, { ...context, indent: inner }));
    }
    const members = lines.map((line) => line.slice(inner.length));
    const oneLine = `{ ${members.join(" ").replace(/;$/, "")} }`;
    const fitsOneLine =
      lines.length > 0 &&
      !members.some((member) => member.includes("\n")) &&
      oneLine.length <= ONE_LINE_OBJECT_MAX_CHARS;
    const closed = fitsOneLine ? oneLine : `{\n${lines.join("\n")}\n${context.indent}}`;
    if (extra.length === 0) {
      if (lines.length > 0) return closed;
      return additional === false ? "{}" : "Record<string, unknown>";
    }
    const record = `Record<string, ${union(extra)}>`;
    return lines.length === 0 ? record : `${closed} & ${record}`;
  }

  /** The alias name for a local `$ref`, creating its declaration on first use. */
  private reference(ref: string, context: ConvertContext): string {
    if (!ref.startsWith("#")) return "unknown";
    const root = context.root;
    if (!isRecord(root) && typeof root !== "boolean") return "unknown";
    let byPointer = isRecord(root) ? this.aliasesByRoot.get(root) : undefined;
    if (byPointer === undefined && isRecord(root)) {
      byPointer = new Map();
      this.aliasesByRoot.set(root, byPointer);
    }
    if (context.directRefs.has(ref)) return "unknown";
    const existing = byPointer?.get(ref);
    if (existing !== undefined) return existing;
    const target = resolvePointer(root, ref);
    if (target === undefined) return "unknown";
    const segments = ref
      .replace(/^#\/?/, "")
      .split("/")
      .filter((segment) => segment !== "");
    const last = segments.length === 0 ? "Self" : decodePointerSegment(segments[segments.length - 1]!);
    const name = this.uniqueName(`${context.namePrefix}${pascalCase(last)}`);
    byPointer?.set(ref, name);
    const index = this.declarations.length;
    this.declarations.push("");
    const body = this.convert(target, {
      ...context,
      indent: "",
      depth: 0,
      visiting: new Set(),
      directRefs: new Set([...context.directRefs, ref]),
    });
    this.declarations[index] = `${this.doc(target, "")}type ${name} = ${body};`;
    return name;
  }
}

interface ConvertContext {
  root: unknown;
  namePrefix: string;
  indent: string;
  depth: number;
  visiting: Set<object>;
  /**
   * `$ref`s being expanded with no object or array in between. Meeting one again
   * would make an alias refer to itself directly (`type A = B; type B = A`),
   * which TypeScript rejects, so it becomes `unknown`.
   */
  directRefs: ReadonlySet<string>;
}

function intersection(parts: string[]): string {
  const kept = [...new Set(parts)].filter((part) => part !== "unknown");
  if (kept.includes("never")) return "never";
  if (kept.length === 0) return "unknown";
  return kept.length === 1 ? kept[0]! : kept.map(wrap).join(" & ");
}

/** The value at a local JSON pointer (`#`, `#/definitions/X`), or `undefined`. */
function resolvePointer(root: unknown, ref: string): unknown {
  const segments = ref
    .replace(/^#\/?/, "")
    .split("/")
    .filter((segment) => segment !== "");
  let current: unknown = root;
  for (const raw of segments) {
    const segment = decodePointerSegment(raw);
    if (Array.isArray(current) && /^\d+$/.test(segment)) current = current[Number(segment)];
    else if (isRecord(current) && Object.hasOwn(current, segment)) current = current[segment];
    else return undefined;
  }
  return current;
}
