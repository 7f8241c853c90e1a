/**
 * Turns the `spec` option (an object, JSON text or YAML text) into an OpenAPI 3.0 / 3.1
 * document whose `$ref`s are resolved by `@apidevtools/json-schema-ref-parser`.
 *
 * Everything except schemas is dereferenced in place (parameters, request bodies,
 * responses, path items: chains of `$ref`s between components included). Schemas keep
 * their `$ref`s: `createSchemaBundler` turns them into `$defs` per method, which keeps
 * recursive schemas finite and shared types named. `resolvePointer` resolves those
 * schema references with the same library.
 */
import { $RefParser } from "@apidevtools/json-schema-ref-parser";
import { CORE_SCHEMA, load as loadYaml } from "js-yaml";
import { InvalidOptionError } from "../../errors.js";
import { isRecord } from "../../shared/is-record.js";

/** A parsed document whose non-schema `$ref`s are resolved. */
export interface ParsedOpenApiDocument {
  /** `"3.0"` or `"3.1"`: schemas of 3.0 documents get `nullable` and boolean `exclusiveMinimum` translated. */
  version: "3.0" | "3.1";
  document: Record<string, unknown>;
  /** Resolves a local JSON pointer (`#/components/schemas/Pet`) in the document. Throws when it is missing. */
  resolvePointer: (pointer: string) => unknown;
}

function parseText(text: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{")) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new InvalidOptionError({
        path: "spec",
        message: `looks like JSON but does not parse: ${(error as Error).message}`,
        cause: error,
      });
    }
  }
  try {
    // The core schema: JSON-compatible YAML (no timestamps turning into Dates, no custom tags).
    return loadYaml(text, { schema: CORE_SCHEMA });
  } catch (error) {
    throw new InvalidOptionError({
      path: "spec",
      message: `is neither JSON nor YAML that parses: ${(error as Error).message}`,
      cause: error,
    });
  }
}

/** Only schemas (and examples, which are data) are left for the schema bundler. */
function isSchemaOrExamplePath(path: string): boolean {
  const hash = path.indexOf("#");
  const segments = (hash === -1 ? path : path.slice(hash + 1)).split("/");
  for (const segment of segments) {
    if (segment === "schema" || segment === "schemas" || segment === "example" || segment === "examples") return true;
  }
  return false;
}

/** Parses, checks and dereferences `spec`. Throws `InvalidOptionError` naming the path for a bad document. */
export async function parseOpenApiDocument(spec: unknown): Promise<ParsedOpenApiDocument> {
  let source: unknown = spec;
  if (typeof spec === "string") {
    source = parseText(spec);
    if (!isRecord(source)) {
      throw new InvalidOptionError({
        path: "spec",
        message:
          "must be an OpenAPI document (an object, or its JSON or YAML text); the text given parses to " +
          `${Array.isArray(source) ? "an array" : typeof source}. To use a file, read it first (readFileSync(path, "utf8")).`,
      });
    }
  } else if (isRecord(spec)) {
    // The library dereferences in place: never mutate the caller's object.
    source = structuredClone(spec);
  } else {
    throw new InvalidOptionError({
      path: "spec",
      message: `must be an OpenAPI document (an object, or its JSON or YAML text), got ${spec === null ? "null" : typeof spec}`,
    });
  }
  const document = source as Record<string, unknown>;
  const openapi = document["openapi"];
  if (typeof openapi !== "string" || !/^3\.[01](\.|$)/.test(openapi)) {
    const swagger = typeof document["swagger"] === "string";
    throw new InvalidOptionError({
      path: "spec.openapi",
      message: swagger
        ? `is missing: this is a Swagger ${String(document["swagger"])} document; convert it to OpenAPI 3 first (e.g. with swagger2openapi)`
        : `must be "3.0.x" or "3.1.x", got ${JSON.stringify(openapi) ?? "nothing"}`,
    });
  }
  if (document["paths"] !== undefined && !isRecord(document["paths"])) {
    throw new InvalidOptionError({ path: "spec.paths", message: "must be an object of path items" });
  }
  const parser = new $RefParser();
  try {
    await parser.dereference(document, {
      // Never read files or the network because a document says so.
      resolve: { external: false },
      dereference: { circular: "ignore", excludedPathMatcher: isSchemaOrExamplePath },
    });
  } catch (error) {
    throw new InvalidOptionError({
      path: "spec",
      message: `has a $ref that cannot be resolved: ${(error as Error).message}`,
      cause: error,
    });
  }
  return {
    version: openapi.startsWith("3.0") ? "3.0" : "3.1",
    document,
    resolvePointer: (pointer) => {
      if (!pointer.startsWith("#")) {
        throw new Error(
          `$ref ${JSON.stringify(pointer)} points outside the document; bundle the document into one file first`,
        );
      }
      return parser.$refs.get(pointer);
    },
  };
}
