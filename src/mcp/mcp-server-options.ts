/**
 * The options of `createCodemodeMcpServer`: the interface users read and its checks and defaults declared against
 * it, validated at construction (errors name the option and the closest known key).
 */
import type { CodemodeRuntime } from "../ai/create-codemode-runtime.js";
import type { InlineTypes } from "../ai/tool-description.js";
import { InvalidOptionError } from "../errors.js";
import { scopeProblem } from "../runtime/execution-request.js";
import { isRecord } from "../shared/is-record.js";
import { declareOptions, option, type ResolvedOf } from "../shared/options/declare-options.js";
import { booleanOption, integerOption, readText, textOption } from "../shared/options/option-checks.js";
import { type ApprovalLinksOption, readApprovalLinks } from "./approval-links.js";
import { PACKAGE_VERSION } from "./package-version.js";

/** How long the server waits for a person to answer an approval form. */
const DEFAULT_ELICITATION_TIMEOUT_MS = 10 * 60_000;
/** Approval forms one tool call may show (a resumed program can pause again); past it the run stays paused. */
export const MAX_ELICITATIONS_PER_CALL = 20;

/** A runtime, or a function returning one (called per request: a proxy builds its runtime on first use). */
type McpServerRuntime = CodemodeRuntime | (() => CodemodeRuntime | Promise<CodemodeRuntime>);

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

function runtimeGetter(runtime: unknown, path: string): () => Promise<CodemodeRuntime> {
  if (isRuntime(runtime)) return () => Promise.resolve(runtime);
  if (typeof runtime === "function" && runtime.length === 0) {
    return async () => {
      const made: unknown = await (runtime as () => unknown)();
      if (!isRuntime(made)) throw new Error("The runtime function did not return a codemode runtime.");
      return made;
    };
  }
  throw new InvalidOptionError({
    path,
    message: "must be a runtime from createCodemodeRuntime() or a function without parameters returning one",
  });
}

/** The `elicitation` option of `createCodemodeMcpServer` as an object. */
interface McpElicitationOptions {
  /**
   * How long to wait for the person's answer, in milliseconds.
   * @default 600_000
   */
  timeoutMs?: number;
}

/** How each key of {@link McpElicitationOptions} is checked and defaulted. */
const ELICITATION_OPTIONS = declareOptions<McpElicitationOptions>()({
  timeoutMs: integerOption(DEFAULT_ELICITATION_TIMEOUT_MS),
});

/** `elicitation` read: the form's timeout, or `undefined` for never elicit. */
function readElicitation(value: unknown, path: string): number | undefined {
  if (value === false) return undefined;
  if (value === undefined || value === true) return DEFAULT_ELICITATION_TIMEOUT_MS;
  if (!isRecord(value)) throw new InvalidOptionError({ path, message: "must be true, false or { timeoutMs }" });
  return ELICITATION_OPTIONS.resolve(value, path).timeoutMs;
}

/** Options of `createCodemodeMcpServer`. */
export interface CodemodeMcpServerOptions {
  /** The app's runtime (`createCodemodeRuntime(...)`), or a function without parameters returning one. */
  runtime: McpServerRuntime;
  /**
   * The owner of every execution this server starts and the only executions its tools can read
   * (`createCodemodeMcpHandler` sets it per session from `authorize`).
   * @default undefined (unscoped)
   */
  scope?: string;
  /**
   * List `codemode_search` and `codemode_describe` beside `codemode` (a model can always search and
   * describe from inside a program with `codemode.search()` / `codemode.describe()`).
   * @default true
   */
  discoveryTools?: boolean;
  /**
   * The `codemode` description's declarations (as `runtime.tool({ inlineTypes })`).
   * @default "auto"
   */
  inlineTypes?: InlineTypes;
  /**
   * Guidance appended to the `codemode` description (as `runtime.tool({ instructions })`).
   * @default undefined (none)
   */
  instructions?: string;
  /**
   * Ask the person to approve paused calls with MCP elicitation when the client declared the capability.
   * `false` never asks (paused results tell how a person decides instead).
   * @default { timeoutMs: 600_000 }
   */
  elicitation?: boolean | McpElicitationOptions;
  /**
   * Send approvals as links to the app's inspector page (`createCodemodeInspector({ approvalLinks })` at `url`,
   * with the same `secret`) when the client takes URL-mode elicitation; without sessions, a paused `codemode`
   * call answers with the `-32042` error carrying the link, and the client retries it after the person decided.
   * The link never appears in a tool result.
   * @default undefined (no links)
   */
  approvalLinks?: ApprovalLinksOption;
  /**
   * How a person decides a paused execution when no elicitation was possible, told to the model
   * (e.g. "Open https://example.com/admin/codemode to approve it."). `{id}` is replaced by the execution id.
   * @default the inspector and the `ai-codemode approve` command
   */
  approvalHint?: string;
  /**
   * `serverInfo` sent at initialization.
   * @default { name: "ai-codemode", version: the package's }
   */
  serverInfo?: { name: string; version: string };
}

/** How each option of {@link CodemodeMcpServerOptions} is checked and defaulted. */
const MCP_SERVER_OPTIONS = declareOptions<CodemodeMcpServerOptions>()({
  runtime: option(runtimeGetter),
  scope: option((value, path) => {
    const problem = scopeProblem(value);
    if (problem !== undefined) throw new InvalidOptionError({ path, message: problem.replace(/^scope /, "") });
    return value as string | undefined;
  }),
  discoveryTools: booleanOption(true),
  inlineTypes: option((value, path): InlineTypes => {
    if (value === undefined) return "auto";
    if (value !== "auto" && typeof value !== "boolean")
      throw new InvalidOptionError({ path, message: 'must be "auto", true or false' });
    return value;
  }),
  instructions: textOption(),
  elicitation: option(readElicitation),
  approvalLinks: option(readApprovalLinks),
  approvalHint: option((value, path) => readText(value, path) ?? DEFAULT_APPROVAL_HINT),
  serverInfo: option((value, path) => {
    if (value === undefined) return { name: "ai-codemode", version: PACKAGE_VERSION };
    if (!isRecord(value) || typeof value["name"] !== "string" || typeof value["version"] !== "string")
      throw new InvalidOptionError({ path, message: "must be { name: string, version: string }" });
    return value as { name: string; version: string };
  }),
});

/** The options with their defaults (`elicitation` is the form's timeout; `undefined`: never elicit). */
export type ResolvedMcpServerOptions = ResolvedOf<typeof MCP_SERVER_OPTIONS.fields>;

/** Every option of `createCodemodeMcpServer`. */
export const MCP_SERVER_OPTION_KEYS = MCP_SERVER_OPTIONS.keys;

/** Validates and resolves the options; a bad option throws `InvalidOptionError` naming it. */
export function resolveMcpServerOptions(options: CodemodeMcpServerOptions): ResolvedMcpServerOptions {
  if (!isRecord(options))
    throw new InvalidOptionError({ path: "createCodemodeMcpServer", message: "takes { runtime, … }" });
  const resolved = MCP_SERVER_OPTIONS.resolve(options, "createCodemodeMcpServer");
  if (resolved.approvalLinks !== undefined && resolved.elicitation === undefined)
    throw new InvalidOptionError({
      path: "createCodemodeMcpServer.approvalLinks",
      message: "needs elicitation (a link is a URL-mode elicitation): remove elicitation: false, or approvalLinks",
    });
  return resolved;
}
