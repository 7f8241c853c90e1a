/**
 * Turns an AI SDK `ToolSet` (including `await mcpClient.tools()`) into a
 * `Connector`: one method per executable tool, validated arguments, approval
 * from `needsApproval`, `ToolExecutionOptions` for `execute`.
 */
import { asSchema, type JSONSchema7, type Schema, type Tool, type ToolExecutionOptions } from "ai";
import { isRecord } from "../shared/is-record.js";
import { InvalidOptionError } from "../errors.js";
import { closestName } from "../shared/closest-name.js";
import { costNotOnReexecute, optionalCallBudget } from "./call-budget-option.js";
import { createJsonSchemaValidator, createSchemaValidator } from "./argument-validator.js";
import { inputTypeOf } from "./declarations.js";
import { isMcpTool, mcpAnnotations, mcpPolicyDefaults, unwrapMcpResult } from "./mcp-tool.js";
import type {
  Connector,
  ConnectorApprovalContext,
  ConnectorRevertContext,
  ConnectorCallContext,
  ConnectorMethod,
  ReplayPolicy,
  SkippedMethod,
} from "./types.js";

/**
 * Per-method policy set by wrapping a tool set with `connector()`. `ARGS` is what the method's callbacks receive
 * (the tool's input, validated by its schema) and `RESULT` what `revert` receives (the tool's recorded result);
 * `connector()` infers both from each tool.
 */
export interface MethodPolicy<ARGS = unknown, RESULT = unknown> {
  /**
   * `"record"`: the result is journaled and returned as recorded on replay. `"reexecute"`: a read whose result is
   * not journaled and that runs again on replay; it cannot be combined with approval.
   * @default "record"
   */
  replay?: ReplayPolicy;
  /**
   * Compensates an applied call during rollback, given its arguments and its recorded result.
   * @default none (the call stays applied)
   */
  revert?: (args: ARGS, result: RESULT, context: ConnectorRevertContext) => unknown;
  /**
   * Whether a call needs a person's approval before it runs; a function receives the validated arguments. Overrides
   * the tool's `needsApproval` (and MCP annotation defaults).
   * @default the tool's `needsApproval`, else false (true for MCP tools annotated destructive)
   */
  needsApproval?: boolean | ((args: ARGS, context?: ConnectorApprovalContext) => boolean | Promise<boolean>);
  /**
   * The tool only reads: journaled without a round trip of its own (see `ConnectorMethod.readOnly`).
   * Cannot be combined with approval.
   * @default true for MCP tools annotated `readOnlyHint: true` without approval, else false
   */
  readOnly?: boolean;
  /**
   * Calls of this tool per execution, over all its passes (see `ConnectorMethod.maxCalls`).
   * @default none
   */
  maxCalls?: number;
  /**
   * What a call with these arguments costs against `limits.maxCost`, a finite number >= 0 (see
   * `ConnectorMethod.cost`).
   * @default none
   */
  cost?: (args: ARGS) => number;
  /**
   * An approver may change a pending call's arguments before it runs (see `ConnectorMethod.editable`).
   * @default false
   */
  editable?: boolean;
}

/**
 * What a tool's method returns to the program: the tool's output, except an MCP `CallToolResult`, which is
 * unwrapped (`structuredContent`, the text parsed as JSON, …) and so has no static type.
 */
type MethodResult<OUTPUT> = OUTPUT extends { content: unknown } ? unknown : OUTPUT;

/**
 * The policy of one tool, its callbacks typed by the tool's input and output (not distributed over a union: a
 * `ToolSet`'s member type is one, and its tools' callbacks take `unknown`).
 */
export type MethodPolicyOf<TOOL> = [TOOL] extends [Tool<infer INPUT, infer OUTPUT, infer _CONTEXT>]
  ? MethodPolicy<INPUT, MethodResult<OUTPUT>>
  : MethodPolicy;

/** A tool as found in a `ToolSet`, read defensively (user input). */
interface LooseTool {
  type?: unknown;
  description?: unknown;
  inputSchema?: unknown;
  outputSchema?: unknown;
  needsApproval?: unknown;
  execute?: unknown;
}

/** The JSON Schema of a flexible schema, or `undefined` when it cannot be produced synchronously. */
function readJsonSchema(schema: Schema<unknown>): JSONSchema7 | undefined {
  try {
    const value: unknown = schema.jsonSchema;
    if (!isRecord(value) || typeof (value as { then?: unknown }).then === "function") return undefined;
    return value as JSONSchema7;
  } catch {
    return undefined;
  }
}

function toSchema(value: unknown, path: string): Schema<unknown> {
  try {
    return asSchema(value as Parameters<typeof asSchema>[0]);
  } catch (cause) {
    throw new InvalidOptionError({
      path,
      message: "must be a zod schema, a Standard Schema or a jsonSchema() value",
      cause,
    });
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return isRecord(value) && typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function";
}

/** A streaming tool yields preliminary values; the program gets the last one. */
async function lastValue(iterable: AsyncIterable<unknown>): Promise<unknown> {
  let last: unknown;
  for await (const value of iterable) last = value;
  return last;
}

/** `ToolExecutionOptions` for a tool, plus the execution id, sequence number and idempotency key. */
type ConnectorToolExecutionOptions = ToolExecutionOptions<unknown> & {
  executionId: string;
  seq: number;
  idempotencyKey: string;
};

function toolExecutionOptions(context: ConnectorCallContext): ConnectorToolExecutionOptions {
  return {
    toolCallId: context.toolCallId,
    messages: context.messages as ToolExecutionOptions<unknown>["messages"],
    abortSignal: context.abortSignal,
    context: context.context,
    executionId: context.executionId,
    seq: context.seq,
    idempotencyKey: context.idempotencyKey,
  };
}

type NeedsApprovalFunction = (
  input: unknown,
  options: { toolCallId: string; messages: unknown[]; context: unknown },
) => boolean | PromiseLike<boolean>;

function approvalFrom(needsApproval: unknown, path: string): ConnectorMethod["needsApproval"] {
  if (needsApproval === undefined) return undefined;
  if (typeof needsApproval === "boolean") return needsApproval;
  if (typeof needsApproval !== "function") {
    throw new InvalidOptionError({
      path: `${path}.needsApproval`,
      message: "must be a boolean or a function of the input",
    });
  }
  const decide = needsApproval as NeedsApprovalFunction;
  return async (args: unknown, context?: ConnectorApprovalContext) =>
    (await decide(args, {
      toolCallId: context?.toolCallId ?? "",
      messages: context?.messages ?? [],
      context: context?.context,
    })) === true;
}

function describeTool(tool: LooseTool): string | undefined {
  if (typeof tool.description === "string") return tool.description;
  if (typeof tool.description === "function") {
    try {
      const text: unknown = (tool.description as (options: { context: unknown }) => unknown)({ context: undefined });
      return typeof text === "string" ? text : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Why a tool cannot become a method, or `undefined` when it can. */
function skipReason(tool: LooseTool): string | undefined {
  if (tool.type === "provider") {
    return "provider-executed tool: it runs inside the model provider and cannot be called from a program";
  }
  if (typeof tool.execute !== "function") {
    return "no execute function (a client-side tool is answered by the UI, not callable from a program)";
  }
  return undefined;
}

/** Builds one method from one tool. */
function toolToMethod({
  connectorName,
  methodName,
  tool,
  policy,
  path,
  policyPath,
}: {
  connectorName: string;
  methodName: string;
  tool: LooseTool;
  policy: MethodPolicy | undefined;
  path: string;
  policyPath: string;
}): ConnectorMethod {
  const label = `${connectorName}.${methodName}`;
  // Without an inputSchema the AI SDK validates nothing and passes the input through (docs/decisions/
  // tools-without-input-schema.md); the SDK's stand-in schema (no properties allowed) would refuse every argument.
  const inputSchema =
    tool.inputSchema === undefined || tool.inputSchema === null
      ? undefined
      : toSchema(tool.inputSchema, `${path}.inputSchema`);
  const inputJsonSchema = inputSchema === undefined ? undefined : readJsonSchema(inputSchema);
  const outputJsonSchema =
    tool.outputSchema === undefined ? undefined : readJsonSchema(toSchema(tool.outputSchema, `${path}.outputSchema`));
  const mcp = isMcpTool(tool);
  const annotations = mcp ? mcpAnnotations(tool) : {};
  const defaults = mcpPolicyDefaults(annotations);
  const validatorOptions = {
    label,
    expectedType: () => (inputJsonSchema === undefined ? undefined : inputTypeOf(inputJsonSchema)),
  };
  const validate =
    inputSchema === undefined
      ? undefined
      : inputSchema.validate !== undefined
        ? createSchemaValidator(inputSchema, validatorOptions)
        : inputJsonSchema !== undefined
          ? createJsonSchemaValidator(inputJsonSchema, validatorOptions)
          : undefined;
  const needsApproval =
    policy?.needsApproval ?? approvalFrom(tool.needsApproval, path) ?? (defaults.needsApproval || undefined);
  const replay = policy?.replay ?? "record";
  if (replay === "reexecute" && needsApproval !== undefined && needsApproval !== false) {
    throw new InvalidOptionError({
      path: `${policyPath}.replay`,
      message:
        `is "reexecute" but ${label} requires approval: an approved action must be recorded so it runs once. ` +
        `Use replay: "record" (the default) or set needsApproval: false.`,
    });
  }
  if (replay === "reexecute" && mcp && !defaults.allowsReexecute) {
    throw new InvalidOptionError({
      path: `${policyPath}.replay`,
      message:
        `is "reexecute" but the MCP tool ${methodName} is not annotated readOnlyHint: true; ` +
        `re-running it on replay could repeat a side effect. Use "record".`,
    });
  }
  const readOnly = readOnlyOf({
    label,
    explicit: policy?.readOnly,
    byDefault: annotations.readOnlyHint === true,
    needsApproval,
    policyPath,
  });
  const execute = tool.execute as (input: unknown, options: ConnectorToolExecutionOptions) => unknown;
  const method: ConnectorMethod = {
    replay,
    execute: async (args, context) => {
      let result: unknown = execute.call(tool, args, toolExecutionOptions(context));
      result = isAsyncIterable(result) ? await lastValue(result) : await result;
      return mcp ? unwrapMcpResult(result) : result;
    },
  };
  const description = describeTool(tool);
  if (description !== undefined) method.description = description;
  if (inputJsonSchema !== undefined) method.inputSchema = inputJsonSchema;
  if (outputJsonSchema !== undefined) method.outputSchema = outputJsonSchema;
  if (validate !== undefined) method.validate = validate;
  if (needsApproval !== undefined) method.needsApproval = needsApproval;
  if (readOnly) method.readOnly = true;
  if (policy?.editable === true) method.editable = true;
  if (policy?.revert !== undefined) method.revert = policy.revert;
  if (policy?.maxCalls !== undefined) {
    optionalCallBudget(policy.maxCalls, `${policyPath}.maxCalls`);
    method.maxCalls = policy.maxCalls;
  }
  if (policy?.cost !== undefined) {
    if (typeof policy.cost !== "function")
      throw new InvalidOptionError({ path: `${policyPath}.cost`, message: "must be a function (args) => number" });
    costNotOnReexecute(policy.cost, replay, `${policyPath}.cost`);
    method.cost = policy.cost;
  }
  return method;
}

/**
 * Whether a method is read-only: as its policy says, else by default (MCP `readOnlyHint: true`) unless it
 * requires approval. An explicit `readOnly: true` with approval is refused: an approved call is an effect.
 */
export function readOnlyOf({
  label,
  explicit,
  byDefault,
  needsApproval,
  policyPath,
}: {
  label: string;
  explicit: unknown;
  byDefault: boolean;
  needsApproval: ConnectorMethod["needsApproval"];
  policyPath: string;
}): boolean {
  if (explicit !== undefined && typeof explicit !== "boolean") {
    throw new InvalidOptionError({ path: `${policyPath}.readOnly`, message: "must be a boolean" });
  }
  const approves = needsApproval !== undefined && needsApproval !== false;
  if (explicit === true && approves) {
    throw new InvalidOptionError({
      path: `${policyPath}.readOnly`,
      message:
        `is true but ${label} requires approval: a call that needs approval has an effect and must be written ` +
        `durably before it runs. Drop readOnly, or set needsApproval: false.`,
    });
  }
  return explicit ?? (byDefault && !approves);
}

/** A policy names no callable tool: say which one was probably meant, or why it is not callable. */
function unknownMethodPolicy(
  path: string,
  methodName: string,
  known: string[],
  skipped: SkippedMethod[],
): InvalidOptionError {
  const skip = skipped.find((entry) => entry.name === methodName);
  const suggestion = closestName(methodName, known);
  const hint =
    skip !== undefined
      ? `the tool is not callable from a program (${skip.reason})`
      : suggestion !== undefined
        ? `did you mean "${suggestion}"?`
        : `methods: ${known.join(", ") || "(none)"}`;
  return new InvalidOptionError({
    path: `${path}.methods.${methodName}`,
    message: `sets a policy for a method that does not exist; ${hint}`,
  });
}

/**
 * Converts a `ToolSet` into a `Connector`. Tools that cannot run from a
 * program (no `execute`, provider-executed) are listed in `skipped` with the
 * reason. `path` names the option for construction errors.
 */
export function toolSetToConnector({
  name,
  tools,
  path,
  methods: policies = {},
}: {
  name: string;
  tools: Record<string, unknown>;
  path: string;
  methods?: Record<string, MethodPolicy>;
}): Connector {
  const methods: Record<string, ConnectorMethod> = Object.create(null) as Record<string, ConnectorMethod>;
  const skipped: SkippedMethod[] = [];
  for (const methodName of Object.keys(tools)) {
    const tool = tools[methodName];
    const toolPath = `${path}.${methodName}`;
    if (!isRecord(tool)) {
      throw new InvalidOptionError({
        path: toolPath,
        message: "must be an AI SDK tool (made with tool() or dynamicTool())",
      });
    }
    const reason = skipReason(tool);
    if (reason !== undefined) {
      skipped.push({ name: methodName, reason });
      continue;
    }
    const policy = Object.hasOwn(policies, methodName) ? policies[methodName] : undefined;
    const policyPath = `${path}.methods.${methodName}`;
    methods[methodName] = toolToMethod({ connectorName: name, methodName, tool, policy, path: toolPath, policyPath });
  }
  for (const methodName of Object.keys(policies)) {
    if (!(methodName in methods)) throw unknownMethodPolicy(path, methodName, Object.keys(methods), skipped);
  }
  const connector: Connector = { methods };
  if (skipped.length > 0) connector.skipped = skipped;
  return connector;
}
