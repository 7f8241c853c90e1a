/**
 * The output schema of an operation: the schemas of its 2xx responses (one, or `anyOf`
 * of several), and their media types for the `Accept` header.
 */
import type { JSONSchema7 } from "ai";
import { encodingOf, pickMediaType } from "./media-type.js";
import type { SchemaBundler } from "./schema-bundler.js";
import { isRecord } from "../../shared/is-record.js";

function withDescription(schema: JSONSchema7, description: unknown): JSONSchema7 {
  return typeof description === "string" && description.trim() !== ""
    ? { ...schema, description: description.trim() }
    : schema;
}

/** Output schema from the 2xx responses (one schema, or `anyOf` of several) and their media types. */
export function responseSchema(
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
    const encoding = encodingOf(mediaType);
    const schema = isRecord(media) ? media["schema"] : undefined;
    // A JSON body without a schema is `unknown`; text and bytes have their type regardless.
    if (encoding === "json" && schema === undefined) continue;
    const described =
      encoding === "json"
        ? withDescription(bundler.convert(schema, references), response["description"])
        : encoding === "binary" || encoding === "multipart"
          ? { description: `${mediaType} response body, as a Uint8Array.` }
          : withDescription({ type: "string" }, response["description"]);
    if (!schemas.some((existing) => JSON.stringify(existing) === JSON.stringify(described))) schemas.push(described);
  }
  const accept = mediaTypes.size > 0 ? [...mediaTypes].join(", ") : undefined;
  if (schemas.length === 0) return accept === undefined ? {} : { accept };
  const root: JSONSchema7 = schemas.length === 1 ? schemas[0]! : { anyOf: schemas };
  return { outputSchema: bundler.withDefinitions(root, references), ...(accept === undefined ? {} : { accept }) };
}
