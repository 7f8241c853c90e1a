/**
 * `ai-codemode/openapi`: OpenAPI 3.0 / 3.1 documents as connectors. A separate entry so
 * the YAML parser and the `$ref` resolver stay out of the main bundle.
 */
export type {
  OpenApiConnectorOptions,
  OpenApiFetch,
  OpenApiHeaders,
  OpenApiOperationOptions,
} from "./connectors/openapi/openapi-connector-options.js";
export { openApiConnector } from "./connectors/openapi/openapi-connector.js";
export { OpenApiRequestError } from "./errors/openapi-request-error.js";
export { OpenApiResponseError } from "./errors/openapi-response-error.js";
