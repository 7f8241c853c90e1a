/**
 * The error hierarchy, one class per file under `errors/`: every error this package throws extends
 * `CodemodeError` and has a literal `code` and a `static isInstance`. Expected outcomes of programs (failures,
 * pauses, conflicts) are values, not errors.
 */
export { CodemodeError } from "./errors/codemode-error.js";
export type { CodemodeErrorCode } from "./errors/codemode-error.js";
export { CorruptRecordError } from "./errors/corrupt-record-error.js";
export { InvalidArgumentError } from "./errors/invalid-argument-error.js";
export { InvalidOptionError } from "./errors/invalid-option-error.js";
export { McpToolError } from "./errors/mcp-tool-error.js";
export { OpenApiResponseError } from "./errors/openapi-response-error.js";
export { StoreError } from "./errors/store-error.js";
