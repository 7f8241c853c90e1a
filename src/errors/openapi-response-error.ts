/** An OpenAPI operation answered with a non-2xx status: the call rejects inside the program with what it said. */
import { CodemodeError } from "./codemode-error.js";

/** A non-2xx response. Rejects the call inside the program; the message says what the server answered. */
export class OpenApiResponseError extends CodemodeError {
  static override readonly errorCode = "openapi-response" as const;
  /** HTTP status code. */
  readonly status: number;
  /** The start of the response body (whitespace collapsed, credentials redacted). */
  readonly excerpt: string;

  constructor({
    operation,
    status,
    statusText,
    excerpt,
  }: {
    operation: string;
    status: number;
    statusText: string;
    excerpt: string;
  }) {
    const said = `${statusText === "" ? "" : ` ${statusText}`}${excerpt === "" ? "" : `: ${excerpt}`}`;
    super({ code: OpenApiResponseError.errorCode, message: `${operation} failed with HTTP ${status}${said}` });
    this.name = "OpenApiResponseError";
    this.status = status;
    this.excerpt = excerpt;
  }
}
