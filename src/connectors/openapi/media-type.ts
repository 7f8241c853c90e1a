/**
 * Media types of request and response bodies, and how each is encoded.
 */

/** How a request or response body is encoded. */
export type BodyEncoding = "json" | "form" | "multipart" | "text" | "binary";

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
export function pickMediaType(content: Record<string, unknown>): string | undefined {
  const types = Object.keys(content);
  for (const encoding of ENCODING_PREFERENCE) {
    const found = types.find((type) => encodingOf(type) === encoding);
    if (found !== undefined) return found;
  }
  return undefined;
}
