/**
 * Converts OpenAPI schema objects into self-contained JSON Schema (2020-12): every
 * `$ref` into the document becomes `#/$defs/Name`, and the schema carries the `$defs`
 * it reaches. Recursive schemas stay finite (the cycle goes through `$defs`), shared
 * types keep one name (good TypeScript declarations), and a method's schema holds only
 * the components it uses.
 *
 * OpenAPI 3.0 dialect is translated: `nullable: true` becomes a `null` type, boolean
 * `exclusiveMinimum`/`exclusiveMaximum` become numbers. Vendor extensions (`x-*`) and
 * OpenAPI-only annotations (`example`, `xml`, `externalDocs`, `discriminator`) are dropped.
 */
import type { JSONSchema7 } from "ai";
import { isRecord } from "../../shared/is-record.js";

/** JSON Schema dialect of the schemas this module produces. */
export const JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** Keywords whose value is one subschema. */
const SCHEMA_KEYWORDS = new Set([
  "items",
  "additionalProperties",
  "not",
  "contains",
  "propertyNames",
  "if",
  "then",
  "else",
  "additionalItems",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
]);
/** Keywords whose value is an array of subschemas. */
const SCHEMA_ARRAY_KEYWORDS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAP_KEYWORDS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** OpenAPI-only annotations that neither validation nor declarations use. */
const DROPPED_KEYWORDS = new Set(["example", "xml", "externalDocs", "discriminator", "nullable", "$schema", "$id"]);

type SchemaRecord = Record<string, unknown>;

/** `full-repository` → `FullRepository`; never empty, never starting with a digit. */
function typeName(raw: string): string {
  const words = raw.split(/[^A-Za-z0-9]+/).filter((word) => word !== "");
  const name = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join("");
  if (name === "") return "Schema";
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

function decodePointerSegment(segment: string): string {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // not percent-encoded
  }
  return decoded.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** The name a pointer's target gets in `$defs`: the component name, else the pointer's segments. */
function nameForPointer(pointer: string): string {
  const segments = pointer.replace(/^#\/?/, "").split("/").map(decodePointerSegment);
  if (segments.length === 3 && segments[0] === "components" && segments[1] === "schemas") return typeName(segments[2]!);
  const relevant = segments[0] === "components" ? segments.slice(2) : segments;
  return typeName(relevant.join("-"));
}

interface ConvertedDefinition {
  name: string;
  schema: JSONSchema7;
  /** Pointers this definition refers to directly. */
  references: Set<string>;
}

/** Converts schemas of one document; shares converted components between methods. */
export interface SchemaBundler {
  /**
   * Converts one schema, adding the pointers it refers to into `references`.
   * The result's `$ref`s point to `#/$defs/...`; finish with `withDefinitions`.
   */
  convert(schema: unknown, references: Set<string>): JSONSchema7;
  /** Adds the `$defs` (transitively) reached from `references` and the dialect to `root`. */
  withDefinitions(root: JSONSchema7, references: Set<string>): JSONSchema7;
}

/** Creates a bundler for one document. `resolvePointer` throws for a missing target. */
export function createSchemaBundler({
  version,
  resolvePointer,
}: {
  version: "3.0" | "3.1";
  resolvePointer: (pointer: string) => unknown;
}): SchemaBundler {
  const definitions = new Map<string, ConvertedDefinition>();
  const usedNames = new Set<string>();
  const namesByPointer = new Map<string, string>();

  function nameOf(pointer: string): string {
    let name = namesByPointer.get(pointer);
    if (name !== undefined) return name;
    const base = nameForPointer(pointer);
    name = base;
    for (let counter = 2; usedNames.has(name); counter++) name = `${base}${counter}`;
    usedNames.add(name);
    namesByPointer.set(pointer, name);
    return name;
  }

  function convertMap(value: unknown, references: Set<string>): unknown {
    if (!isRecord(value)) return value;
    const out: SchemaRecord = {};
    for (const [key, sub] of Object.entries(value)) out[key] = convertNode(sub, references);
    return out;
  }

  /** Schemas being converted right now: a JavaScript cycle (not a `$ref`) would never end. */
  const active = new Set<object>();

  function convertNode(schema: unknown, references: Set<string>): unknown {
    if (typeof schema === "boolean") return schema;
    if (!isRecord(schema)) return {};
    if (active.has(schema)) {
      throw new Error(
        "a schema contains itself as an object (a JavaScript cycle, not a $ref); pass the document with its $refs",
      );
    }
    active.add(schema);
    try {
      return convertObject(schema, references);
    } finally {
      active.delete(schema);
    }
  }

  function convertObject(schema: SchemaRecord, references: Set<string>): unknown {
    const ref = schema["$ref"];
    if (typeof ref === "string") {
      references.add(ref);
      const target: SchemaRecord = { $ref: `#/$defs/${nameOf(ref)}` };
      // 3.0 ignores siblings of $ref; 3.1 (2020-12) keeps them, annotations included.
      if (version === "3.0") return target;
      const { $ref: _ignored, ...siblings } = schema;
      return Object.keys(siblings).length === 0
        ? target
        : { ...(convertNode(siblings, references) as SchemaRecord), ...target };
    }
    const out: SchemaRecord = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key.startsWith("x-") || DROPPED_KEYWORDS.has(key)) continue;
      if (SCHEMA_KEYWORDS.has(key)) {
        out[key] = Array.isArray(value)
          ? value.map((item) => convertNode(item, references))
          : convertNode(value, references);
      } else if (SCHEMA_ARRAY_KEYWORDS.has(key)) {
        out[key] = Array.isArray(value) ? value.map((item) => convertNode(item, references)) : value;
      } else if (SCHEMA_MAP_KEYWORDS.has(key)) {
        out[key] = convertMap(value, references);
      } else {
        out[key] = value;
      }
    }
    if (version === "3.0") translateOpenApi30(schema, out);
    return out;
  }

  function definition(pointer: string): ConvertedDefinition {
    const existing = definitions.get(pointer);
    if (existing !== undefined) return existing;
    const references = new Set<string>();
    const entry: ConvertedDefinition = { name: nameOf(pointer), schema: {}, references };
    definitions.set(pointer, entry);
    entry.schema = convertNode(resolvePointer(pointer), references) as JSONSchema7;
    return entry;
  }

  return {
    convert: (schema, references) => convertNode(schema, references) as JSONSchema7,
    withDefinitions(root, references) {
      const reached = new Map<string, ConvertedDefinition>();
      const queue = [...references];
      while (queue.length > 0) {
        const pointer = queue.pop()!;
        if (reached.has(pointer)) continue;
        const entry = definition(pointer);
        reached.set(pointer, entry);
        for (const next of entry.references) if (!reached.has(next)) queue.push(next);
      }
      const result: SchemaRecord = { $schema: JSON_SCHEMA_DIALECT, ...(root as SchemaRecord) };
      if (reached.size > 0) {
        const defs: Record<string, JSONSchema7> = {};
        const sorted = [...reached.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        for (const entry of sorted) defs[entry.name] = entry.schema;
        result["$defs"] = defs;
      }
      return result as JSONSchema7;
    },
  };
}

/** OpenAPI 3.0 → JSON Schema: `nullable`, boolean exclusive bounds. Mutates `out`. */
function translateOpenApi30(source: SchemaRecord, out: SchemaRecord): void {
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof source[flag] === "boolean") {
      if (source[flag] === true && typeof source[bound] === "number") {
        out[flag] = source[bound];
        delete out[bound];
      } else {
        delete out[flag];
      }
    }
  }
  if (source["nullable"] !== true) return;
  const type = out["type"];
  if (typeof type === "string") out["type"] = type === "null" ? type : [type, "null"];
  else if (Array.isArray(type)) {
    if (!type.includes("null")) out["type"] = [...type, "null"];
  } else {
    // No type to widen (e.g. `allOf: [{ $ref }]` plus `nullable`): wrap.
    const inner = { ...out };
    for (const key of Object.keys(out)) delete out[key];
    if (typeof inner["description"] === "string") {
      out["description"] = inner["description"];
      delete inner["description"];
    }
    out["anyOf"] = [inner, { type: "null" }];
    return;
  }
  if (Array.isArray(out["enum"]) && !out["enum"].includes(null)) out["enum"] = [...out["enum"], null];
}
