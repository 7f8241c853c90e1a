/**
 * The options of `createCodemodeMcpServer`, validated once at construction (errors name
 * the option and the closest known key) and resolved with their defaults.
 */
import type { CodemodeRuntime } from "../ai/create-codemode-runtime.js";
import type { InlineTypes } from "../ai/tool-description.js";
import { InvalidOptionError } from "../errors.js";
import { scopeProblem } from "../runtime/execution-request.js";
import { assertKnownKeys, keysOf } from "../shared/known-keys.js";
import { PACKAGE_VERSION } from "./package-version.js";

/** How long the server waits for a person to answer an approval form. */
const DEFAULT_ELICITATION_TIMEOUT_MS = 10 * 60_000;
/** Approval forms one tool call may show (a resumed program can pause again); past it the run stays paused. */
export const MAX_ELICITATIONS_PER_CALL = 20;

/** A runtime, or a function returning one (called per request: a proxy builds its runtime on first use). */
type McpServerRuntime = CodemodeRuntime | (() => CodemodeRuntime | Promise<CodemodeRuntime>);

/** Options of `createCodemodeMcpServer`. */
export interface CodemodeMcpServerOptions {
  /** The app's runtime (`createCodemodeRuntime(...)`), or a function without parameters returning one. */
  runtime: McpServerRuntime;
  /**
   * The owner of every execution this server starts and the only executions its tools can read
   * (`createCodemodeMcpHandler` sets it per session from `authorize`). @default undefined (unscoped)
   */
  scope?: string;
  /**
   * List `codemode_search` and `codemode_describe` beside `codemode` (a model can always search and
   * describe from inside a program with `codemode.search()` / `codemode.describe()`). @default true
   */
  discoveryTools?: boolean;
  /** The `codemode` description's declarations (as `runtime.tool({ inlineTypes })`). @default "auto" */
  inlineTypes?: InlineTypes;
  /** Guidance appended to the `codemode` description (as `runtime.tool({ instructions })`). */
  instructions?: string;
  /**
   * Ask the person to approve paused calls with MCP elicitation when the client declared the capability.
   * `false` never asks (paused results tell how a person decides instead). @default { timeoutMs: 600000 }
   */
  elicitation?: boolean | { timeoutMs?: number };
  /**
   * How a person decides a paused execution when no elicitation was possible, told to the model
   * (e.g. "Open https://example.com/admin/codemode to approve it."). `{id}` is replaced by the execution id.
   * @default the inspector and the `ai-codemode approve` command
   */
  approvalHint?: string;
  /** `serverInfo` sent at initialization. @default { name: "ai-codemode", version: the package's } */
  serverInfo?: { name: string; version: string };
}

/** The options with their defaults. */
export interface ResolvedMcpServerOptions {
  runtime: () => Promise<CodemodeRuntime>;
  scope: string | undefined;
  discoveryTools: boolean;
  inlineTypes: InlineTypes;
  instructions: string | undefined;
  /** `undefined`: never elicit. */
  elicitationTimeoutMs: number | undefined;
  approvalHint: string;
  serverInfo: { name: string; version: string };
}

/** Every option of `createCodemodeMcpServer`. */
export const MCP_SERVER_OPTION_KEYS = keysOf<CodemodeMcpServerOptions>({
  runtime: true,
  scope: true,
  discoveryTools: true,
  inlineTypes: true,
  instructions: true,
  elicitation: true,
  approvalHint: true,
  serverInfo: true,
});

/** What the model is told about deciding a paused execution without elicitation. */
const DEFAULT_APPROVAL_HINT =
  "A person decides it outside this chat: in the app's codemode inspector, or with " +
  "`npx ai-codemode approve {id} --runtime <module>` (or `reject`). The model cannot approve it.";

function isRuntime(value: unknown): value is CodemodeRuntime {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return ["execute", "decide", "execution", "search", "describe", "tool"].every(
    (key) => typeof record[key] === "function",
  );
}

function runtimeGetter(runtime: unknown): () => Promise<CodemodeRuntime> {
  if (isRuntime(runtime)) return () => Promise.resolve(runtime);
  if (typeof runtime === "function" && runtime.length === 0) {
    return async () => {
      const made: unknown = await (runtime as () => unknown)();
      if (!isRuntime(made)) throw new Error("The runtime function did not return a codemode runtime.");
      return made;
    };
  }
  throw new InvalidOptionError({
    path: "createCodemodeMcpServer.runtime",
    message: "must be a runtime from createCodemodeRuntime() or a function without parameters returning one",
  });
}

/** Every key of `elicitation: { … }`. */
const ELICITATION_KEYS = keysOf<Exclude<CodemodeMcpServerOptions["elicitation"], boolean | undefined>>({
  timeoutMs: true,
});

function elicitationTimeout(value: CodemodeMcpServerOptions["elicitation"]): number | undefined {
  if (value === false) return undefined;
  if (value === undefined || value === true) return DEFAULT_ELICITATION_TIMEOUT_MS;
  if (typeof value !== "object" || value === null) {
    throw new InvalidOptionError({
      path: "createCodemodeMcpServer.elicitation",
      message: "must be true, false or { timeoutMs }",
    });
  }
  assertKnownKeys(value, ELICITATION_KEYS, "createCodemodeMcpServer.elicitation");
  const { timeoutMs = DEFAULT_ELICITATION_TIMEOUT_MS } = value;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) {
    throw new InvalidOptionError({
      path: "createCodemodeMcpServer.elicitation.timeoutMs",
      message: "must be a positive integer (milliseconds)",
    });
  }
  return timeoutMs;
}

function optionalString(value: unknown, path: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "")
    throw new InvalidOptionError({ path, message: "must be a non-empty string" });
  return value;
}

/** Validates and resolves the options; a bad option throws `InvalidOptionError` naming it. */
export function resolveMcpServerOptions(options: CodemodeMcpServerOptions): ResolvedMcpServerOptions {
  if (typeof options !== "object" || options === null)
    throw new InvalidOptionError({ path: "createCodemodeMcpServer", message: "takes { runtime, … }" });
  assertKnownKeys(options, MCP_SERVER_OPTION_KEYS, "createCodemodeMcpServer");
  const scopeIssue = scopeProblem(options.scope);
  if (scopeIssue !== undefined)
    throw new InvalidOptionError({ path: "createCodemodeMcpServer.scope", message: scopeIssue.replace(/^scope /, "") });
  const { discoveryTools = true, inlineTypes = "auto", serverInfo } = options;
  if (typeof discoveryTools !== "boolean")
    throw new InvalidOptionError({ path: "createCodemodeMcpServer.discoveryTools", message: "must be a boolean" });
  if (inlineTypes !== "auto" && typeof inlineTypes !== "boolean")
    throw new InvalidOptionError({
      path: "createCodemodeMcpServer.inlineTypes",
      message: 'must be "auto", true or false',
    });
  if (serverInfo !== undefined && (typeof serverInfo?.name !== "string" || typeof serverInfo?.version !== "string")) {
    throw new InvalidOptionError({
      path: "createCodemodeMcpServer.serverInfo",
      message: "must be { name: string, version: string }",
    });
  }
  return {
    runtime: runtimeGetter(options.runtime),
    scope: options.scope,
    discoveryTools,
    inlineTypes,
    instructions: optionalString(options.instructions, "createCodemodeMcpServer.instructions"),
    elicitationTimeoutMs: elicitationTimeout(options.elicitation),
    approvalHint: optionalString(options.approvalHint, "createCodemodeMcpServer.approvalHint") ?? DEFAULT_APPROVAL_HINT,
    serverInfo: serverInfo ?? { name: "ai-codemode", version: PACKAGE_VERSION },
  };
}
