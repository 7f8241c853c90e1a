/**
 * Reads an operation's HTTP response: 2xx bodies become the method's result (JSON
 * parsed, text as a string, anything else as bytes, empty as `undefined`), every one
 * redacted of the host's credentials (bytes before decoding, then the decoded value); other
 * statuses become an `OpenApiResponseError` whose message carries the status and a short,
 * credential-free excerpt of the body, written for a model to act on.
 */
import { encodingOf } from "./media-type.js";
import { OpenApiResponseError } from "../../errors/openapi-response-error.js";
import { redactBytes, redactText, redactValue } from "./redact-secrets.js";

/** How much of an error response body the message quotes. */
const DEFAULT_ERROR_EXCERPT_CHARS = 300;

/** Collapses whitespace, redacts credentials and cuts to `maxChars`. */
function excerptOf(text: string, secrets: readonly string[], maxChars = DEFAULT_ERROR_EXCERPT_CHARS): string {
  const collapsed = redactText(text.replace(/\s+/g, " ").trim(), secrets);
  return collapsed.length > maxChars ? `${collapsed.slice(0, maxChars)}…` : collapsed;
}

/** The body's bytes with every credential redacted, decoded as UTF-8 text and redacted again. */
async function redactedText(response: Response, secrets: readonly string[]): Promise<string> {
  const bytes = redactBytes(new Uint8Array(await response.arrayBuffer()), secrets);
  return redactText(new TextDecoder().decode(bytes), secrets);
}

/** Returns the decoded 2xx body or throws `OpenApiResponseError`. `operation` names the call (`GET /pets/{petId}`). */
export async function readResponse(
  response: Response,
  { operation, secrets }: { operation: string; secrets: readonly string[] },
): Promise<unknown> {
  const contentType = response.headers.get("content-type") ?? "";
  if (!response.ok) {
    const body = await redactedText(response, secrets).catch(() => "");
    throw new OpenApiResponseError({
      operation,
      status: response.status,
      // The reason phrase is the server's too: it may echo a credential.
      statusText: redactText(response.statusText, secrets),
      excerpt: excerptOf(body, secrets),
    });
  }
  if (response.status === 204 || response.status === 205) return undefined;
  // No content type: read as text. Form-encoded: text too (the program can parse it).
  const encoding = contentType === "" ? "text" : encodingOf(contentType);
  if (encoding === "json" || encoding === "text" || encoding === "form") {
    const text = await redactedText(response, secrets);
    if (text === "") return undefined;
    if (encoding === "json") {
      try {
        return redactValue(JSON.parse(text), secrets);
      } catch {
        throw new OpenApiResponseError({
          operation,
          status: response.status,
          statusText: "with a body that is not valid JSON",
          excerpt: excerptOf(text, secrets),
        });
      }
    }
    return text;
  }
  const bytes = redactBytes(new Uint8Array(await response.arrayBuffer()), secrets);
  return bytes.byteLength === 0 ? undefined : bytes;
}
