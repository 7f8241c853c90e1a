/**
 * Builds `ConnectorMethod.validate` from a tool's input schema: the schema's own
 * validator when it has one (zod, Standard Schema, `jsonSchema(..., { validate })`);
 * otherwise (plain `jsonSchema()`, MCP
 * tools, hand-written JSON Schema) the `@cfworker/json-schema` validator.
 */
import type { JSONSchema7, Schema } from "ai";
import type { Validator } from "@cfworker/json-schema";
import type { ArgumentValidation } from "./types.js";
import { messageOf } from "../shared/message-of.js";
import {
  formatValidationIssues,
  issuesFromJsonSchemaErrors,
  issuesFromSchemaError,
  type ValidationIssue,
} from "./validation-issues.js";

/** What a validator needs to know to build its message. */
export interface ArgumentValidatorOptions {
  /** `connector.method`, used in the message. */
  label: string;
  /** Renders the expected input type for the message (lazily: only on failure). */
  expectedType?: () => string | undefined;
}

function fail(
  { label, expectedType }: ArgumentValidatorOptions,
  issues: ValidationIssue[],
  value: unknown,
): ArgumentValidation {
  const expected = expectedType?.();
  return {
    success: false,
    error: formatValidationIssues({
      label,
      issues,
      value,
      ...(expected === undefined ? {} : { expectedType: expected }),
    }),
  };
}

type Draft = ConstructorParameters<typeof Validator>[1];

let validatorModule: Promise<typeof import("@cfworker/json-schema")> | undefined;
/** Whether any JSON Schema validator was made in this process (a connector will want the library). */
let validatorWanted = false;

/**
 * Starts importing the validator library when a connector made in this process will validate with it. Called as a
 * run starts: on a cold start the main thread then loads it while the sandbox worker boots, instead of at the first
 * call, on the way to the first result. Without such a connector it loads nothing.
 */
export function preloadJsonSchemaValidator(): void {
  if (!validatorWanted || validatorModule !== undefined) return;
  validatorModule = import("@cfworker/json-schema");
  // A failure is the first validation's to report.
  validatorModule.catch(() => undefined);
}

/** Whether the validator library has been asked for (for tests). */
export function jsonSchemaValidatorRequested(): boolean {
  return validatorModule !== undefined;
}

/** The draft named by `$schema`; draft 7 (what the AI SDK and most MCP servers emit) otherwise. */
function draftOf(schema: JSONSchema7): Draft {
  const declared = typeof schema.$schema === "string" ? schema.$schema : "";
  if (declared.includes("2020-12")) return "2020-12";
  if (declared.includes("2019-09")) return "2019-09";
  if (declared.includes("draft-04")) return "4";
  return "7";
}

type ValidatorClass = typeof import("@cfworker/json-schema").Validator;

/**
 * A synchronous validator for plain JSON Schema (the draft named by `$schema`, draft 7 by default),
 * for callers that already import the validator library (the OpenAPI entry).
 */
export function createSyncJsonSchemaValidator(
  validatorClass: ValidatorClass,
  schema: JSONSchema7,
  options: ArgumentValidatorOptions,
): (args: unknown) => ArgumentValidation {
  let validator: Validator | undefined;
  return (args) => {
    validator ??= new validatorClass(schema as ConstructorParameters<ValidatorClass>[0], draftOf(schema), false);
    const result = validator.validate(args);
    if (result.valid) return { success: true, value: args };
    return fail(options, issuesFromJsonSchemaErrors(result.errors), args);
  };
}

/**
 * {@link createSyncJsonSchemaValidator} with the validator library imported at the first
 * validation (~6 ms at start-up that importing the package no longer pays).
 */
export function createJsonSchemaValidator(
  schema: JSONSchema7,
  options: ArgumentValidatorOptions,
): (args: unknown) => Promise<ArgumentValidation> {
  let validate: ((args: unknown) => ArgumentValidation) | undefined;
  validatorWanted = true;
  return async (args) => {
    if (validate === undefined) {
      validatorModule ??= import("@cfworker/json-schema");
      validate = createSyncJsonSchemaValidator((await validatorModule).Validator, schema, options);
    }
    return validate(args);
  };
}

/** The AI SDK's `TypeValidationError`, told by the marker every AI SDK error carries (no import of `ai` needed). */
function isTypeValidationError(error: unknown): error is Error & { cause: unknown } {
  return typeof error === "object" && error !== null && Symbol.for("vercel.ai.error.AI_TypeValidationError") in error;
}

/** A validator that delegates to the schema's own `validate` (a throw is a failed validation, as in the AI SDK). */
export function createSchemaValidator(
  schema: Schema<unknown>,
  options: ArgumentValidatorOptions,
): (args: unknown) => Promise<ArgumentValidation> {
  return async (args) => {
    if (schema.validate === undefined) return { success: true, value: args };
    let error: unknown;
    try {
      const result = await schema.validate(args);
      if (result.success) return { success: true, value: result.value };
      error = result.error;
    } catch (thrown) {
      error = thrown;
    }
    // The AI SDK wraps the schema library's error (zod's, a Standard Schema's issues) in a TypeValidationError.
    const cause = isTypeValidationError(error) ? error.cause : error;
    const issues = issuesFromSchemaError(cause) ?? [
      { path: [], message: cause instanceof Error ? cause.message : messageOf(error) },
    ];
    return fail(options, issues, args);
  };
}
