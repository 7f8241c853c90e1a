/**
 * `connector(tools, options)`: wraps an AI SDK `ToolSet` (or MCP tools) with
 * per-method policy (replay, revert, approval), guidance for the model and
 * lifecycle hooks.
 */
import type { ToolSet } from "ai";
import { InvalidOptionError } from "../errors.js";
import { isRecord } from "../shared/is-record.js";
import { declareOptions, option, type OptionField } from "../shared/options/declare-options.js";
import { functionOption } from "../shared/options/option-checks.js";
import { toolSetToConnector, type MethodPolicy, type MethodPolicyOf } from "./tool-set-connector.js";
import type { Connector, ConnectorLifecycleContext } from "./types.js";

export type { MethodPolicy } from "./tool-set-connector.js";

/** Options of `connector()`. */
export interface ConnectorOptions<TOOLS extends ToolSet = ToolSet> {
  /**
   * Per-method policy, by tool name; each policy's callbacks get the tool's own input (and `revert` its output)
   * types. A name the tool set does not have is refused.
   * @default {} (each tool's own settings)
   */
  methods?: { [NAME in keyof TOOLS & string]?: MethodPolicyOf<TOOLS[NAME]> };
  /**
   * One line about the namespace, shown in the tool description and `describe`.
   * @default none
   */
  description?: string;
  /**
   * Extra guidance for the model about this namespace (shown by `describe`).
   * @default none
   */
  instructions?: string;
  /**
   * Called after every pass (completed, failed, paused). Errors are ignored.
   * @default none
   */
  onPassEnd?: (context: ConnectorLifecycleContext) => unknown;
  /**
   * Called after completion, error, rejection or rollback; never after a pause. Errors are ignored.
   * @default none
   */
  disposeExecution?: (context: ConnectorLifecycleContext) => unknown;
}

const WRAPPED = Symbol.for("ai-codemode.connector.wrapped");

/** What `connector()` remembers so `resolveConnector` can rebuild it under its real name. */
interface WrappedSource {
  tools: Record<string, unknown>;
  options: ConnectorOptions;
}

/** The tools and options a `connector()` result was made from, if it was. */
export function wrappedSource(value: unknown): WrappedSource | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  return (value as { [WRAPPED]?: WrappedSource })[WRAPPED];
}

/** The check of one method's policy (its budgets and approval rules are checked again where the method is built). */
const METHOD_POLICY = declareOptions<MethodPolicy>()({
  replay: option((value, path) => {
    if (value !== undefined && value !== "record" && value !== "reexecute")
      throw new InvalidOptionError({ path, message: `must be "record" or "reexecute"` });
    return value;
  }),
  revert: functionOption<NonNullable<MethodPolicy["revert"]>>("(args, result, context) => unknown"),
  needsApproval: option((value, path) => {
    if (value !== undefined && typeof value !== "boolean" && typeof value !== "function")
      throw new InvalidOptionError({ path, message: "must be a boolean or a function of the arguments" });
    return value;
  }),
  readOnly: optionalBoolean(),
  maxCalls: option((value) => value),
  cost: option((value) => value),
  editable: optionalBoolean(),
});

/** `true`, `false` or omitted. */
function optionalBoolean(): OptionField<boolean | undefined> {
  return option((value, path) => {
    if (value !== undefined && typeof value !== "boolean")
      throw new InvalidOptionError({ path, message: "must be a boolean" });
    return value;
  });
}

/** A string, or omitted. */
function optionalString(): OptionField<string | undefined> {
  return option((value, path) => {
    if (value !== undefined && typeof value !== "string")
      throw new InvalidOptionError({ path, message: "must be a string" });
    return value;
  });
}

/** How each option of {@link ConnectorOptions} is checked (any other key is refused: a misspelt policy must not be ignored). */
const CONNECTOR_OPTIONS = declareOptions<ConnectorOptions>()({
  methods: option((value, path) => {
    if (value === undefined) return undefined;
    if (!isRecord(value)) throw new InvalidOptionError({ path, message: "must be an object keyed by tool name" });
    for (const [name, policy] of Object.entries(value)) {
      if (policy === undefined) continue;
      if (!isRecord(policy)) {
        throw new InvalidOptionError({
          path: `${path}.${name}`,
          message: "must be an object { replay?, revert?, needsApproval?, readOnly?, maxCalls?, cost?, editable? }",
        });
      }
      METHOD_POLICY.resolve(policy, `${path}.${name}`);
    }
    return value;
  }),
  description: optionalString(),
  instructions: optionalString(),
  onPassEnd: functionOption<NonNullable<ConnectorOptions["onPassEnd"]>>("(context) => unknown"),
  disposeExecution: functionOption<NonNullable<ConnectorOptions["disposeExecution"]>>("(context) => unknown"),
});

function checkOptions(options: ConnectorOptions, path: string): void {
  if (!isRecord(options)) {
    throw new InvalidOptionError({
      path: `${path}.options`,
      message: "must be an object { methods?, description?, instructions?, … }",
    });
  }
  CONNECTOR_OPTIONS.resolve(options, path);
}

/**
 * Builds a `Connector` from a tool set with per-method policy. The result is
 * validated now (construction errors name `connector().methods.<tool>...`) and
 * again under its real name when given to the runtime.
 *
 * - `replay: "reexecute"` marks a read whose result is not journaled and is
 *   re-run on replay; it cannot be combined with approval.
 * - `revert(args, result, ctx)` compensates an applied call during `rollback`.
 * - `needsApproval` overrides the tool's `needsApproval` and MCP annotation defaults.
 * - `readOnly: true` marks a read that is still journaled (replay returns its recorded result) but costs no
 *   store round trip of its own; refused with approval. MCP tools annotated `readOnlyHint: true` default to it.
 * - `editable: true` lets an approver run a pending call with changed arguments (`approve({ executionId, seq, args })`).
 *
 * @example
 * const github = connector(githubTools, {
 *   description: "GitHub issues and pull requests",
 *   methods: {
 *     create_issue: { needsApproval: true, revert: (args, issue) => closeIssue(issue) },
 *     list_issues: { replay: "reexecute" },
 *   },
 * });
 * const runtime = createCodemodeRuntime({ connectors: { github } });
 */
export function connector<TOOLS extends ToolSet>(tools: TOOLS, options: ConnectorOptions<TOOLS> = {}): Connector {
  const path = "connector()";
  if (typeof tools !== "object" || tools === null || Array.isArray(tools)) {
    throw new InvalidOptionError({ path, message: "needs an AI SDK ToolSet as its first argument" });
  }
  const loose = options as ConnectorOptions;
  checkOptions(loose, path);
  const built = buildConnector("connector", tools as Record<string, unknown>, loose, path);
  Object.defineProperty(built, WRAPPED, { value: { tools, options: loose }, enumerable: false });
  return built;
}

/** Builds the connector for `name` from a tool set and `connector()` options. */
export function buildConnector(
  name: string,
  tools: Record<string, unknown>,
  options: ConnectorOptions,
  path: string,
): Connector {
  const methods = (options.methods ?? {}) as Record<string, MethodPolicy>;
  const built = toolSetToConnector({ name, tools, path, methods });
  if (options.description !== undefined) built.description = options.description;
  if (options.instructions !== undefined) built.instructions = options.instructions;
  if (options.onPassEnd !== undefined) built.onPassEnd = options.onPassEnd;
  if (options.disposeExecution !== undefined) built.disposeExecution = options.disposeExecution;
  return built;
}
