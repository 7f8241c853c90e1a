/**
 * The `codemode` tool's input, `{ code: string }`, as the JSON Schema sent to
 * providers and the validator the AI SDK runs on the model's tool call.
 */
import type { JSONSchema7 } from "ai";
import type { CodemodeInput } from "../runtime/types.js";

/** JSON Schema of `{ code }`. */
export const CODEMODE_INPUT_JSON_SCHEMA: JSONSchema7 = {
  type: "object",
  properties: {
    code: { type: "string", description: "async arrow function, function body or expression (JS or TS)" },
  },
  required: ["code"],
  additionalProperties: false,
};

/** Validates the model's tool input: an object with a string `code`; other fields are dropped. */
export function validateCodemodeInput(
  value: unknown,
): { success: true; value: CodemodeInput } | { success: false; error: Error } {
  if (typeof value === "object" && value !== null && typeof (value as { code?: unknown }).code === "string") {
    return { success: true, value: { code: (value as { code: string }).code } };
  }
  return { success: false, error: new Error('codemode input must be { "code": string } with the program as a string') };
}
