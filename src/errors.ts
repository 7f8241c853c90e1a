/**
 * The error hierarchy, one class per file under `errors/`: every error this package throws extends
 * `CodemodeError` and has a literal `code` and a `static isInstance`. Expected outcomes of programs (failures,
 * pauses, conflicts) are values, not errors.
 */
export { CliError } from "./errors/cli-error.js";
export { CodecError } from "./errors/codec-error.js";
export { CodemodeArgumentError } from "./errors/codemode-argument-error.js";
export { CodemodeError } from "./errors/codemode-error.js";
export { CorruptRecordError } from "./errors/corrupt-record-error.js";
export { InvalidOptionError } from "./errors/invalid-option-error.js";
export { McpToolError } from "./errors/mcp-tool-error.js";
export { OpenApiRequestError } from "./errors/openapi-request-error.js";
export { OpenApiResponseError } from "./errors/openapi-response-error.js";
export { OutboundFetchError } from "./errors/outbound-fetch-error.js";
export { RedirectError } from "./errors/redirect-error.js";
export { StoreError } from "./errors/store-error.js";
export { StoreConfigurationError } from "./errors/store-configuration-error.js";
export { UnsafeRequestError } from "./errors/unsafe-request-error.js";
