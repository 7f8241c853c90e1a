/**
 * `ai-codemode/openapi`: OpenAPI 3.0 / 3.1 documents as connectors. A separate entry so
 * the YAML parser and the `$ref` resolver stay out of the main bundle.
 */
export type { HttpMethod, OpenApiOperationInfo } from "./connectors/openapi/collect-operations.js";
export { HTTP_METHODS } from "./connectors/openapi/collect-operations.js";
// Kept under its old public name until the surface review drops it (it is a fixed cut, not an option default).
export { MAX_OPERATION_DESCRIPTION_CHARS as DEFAULT_DESCRIPTION_MAX_CHARS } from "./connectors/openapi/collect-operations.js";
export type {
  OpenApiConnectorOptions,
  OpenApiFetch,
  OpenApiHeaders,
  OpenApiOperationOptions,
} from "./connectors/openapi/openapi-connector-options.js";
export { DEFAULT_OPENAPI_READ_REPLAY, SAFE_METHODS } from "./connectors/openapi/openapi-connector-options.js";
export { DEFAULT_CONNECTOR_DESCRIPTION_MAX_CHARS, openApiConnector } from "./connectors/openapi/openapi-connector.js";
export { DEFAULT_ERROR_EXCERPT_CHARS } from "./connectors/openapi/read-response.js";
export { OpenApiResponseError } from "./errors/openapi-response-error.js";
export { REDACTED } from "./connectors/openapi/redact-secrets.js";
