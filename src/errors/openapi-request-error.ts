/**
 * An OpenAPI operation whose request did not complete: the host's headers failed, the run was aborted, a redirect
 * was refused, or the server could not be reached. (A server that answered with a non-2xx status is an
 * `OpenApiResponseError`.) The program sees it as the call's rejection; credentials are redacted from the message.
 */
import { CodemodeError } from "./codemode-error.js";

/** Why an OpenAPI request did not complete. */
export type OpenApiRequestFailure = "headers" | "aborted" | "redirect" | "unreachable";

/** An OpenAPI request that did not complete (no response was read). */
export class OpenApiRequestError extends CodemodeError {
  static override readonly errorCode = "openapi-request" as const;
  /** `METHOD /path` of the operation. */
  readonly operation: string;
  readonly failure: OpenApiRequestFailure;

  constructor({
    operation,
    failure,
    message,
    cause,
  }: {
    operation: string;
    failure: OpenApiRequestFailure;
    message: string;
    cause?: unknown;
  }) {
    super({ code: OpenApiRequestError.errorCode, message: `${operation} ${message}`, cause });
    this.name = "OpenApiRequestError";
    this.operation = operation;
    this.failure = failure;
  }
}
