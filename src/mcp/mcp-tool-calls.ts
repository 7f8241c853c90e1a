/**
 * What each codemode MCP tool does with its arguments: `codemode` runs the program (and asks
 * for approvals when it pauses), the discovery tools search and describe, `codemode_outcome`
 * reads an execution. Failures are results (`isError`), never thrown: only an unknown tool
 * is a protocol error, and a paused call whose approval link goes out as `-32042`.
 */
import { UrlElicitationRequiredError } from "@modelcontextprotocol/server";
import { CODEMODE_INPUT_JSON_SCHEMA } from "../ai/codemode-input-schema.js";
import type { CodemodeRuntime } from "../ai/create-codemode-runtime.js";
import type { CodemodeTool } from "../ai/build-codemode-tool.js";
import type { CodemodeOutput, ExecutionDetail } from "../runtime/types.js";
import type { HmacSecret } from "../shared/hmac.js";
import { messageOf } from "../shared/message-of.js";
import type { ApprovalLinks } from "./approval-links.js";
import {
  CARD_DECIDE_TOOL,
  CARD_DECIDE_TOOL_DEFINITION,
  cardMessage,
  decideByCard,
  withApprovalCard,
  withCardPayload,
} from "./approval-card.js";
import { executionOutcome } from "./execution-outcome.js";
import type { ResolvedMcpServerOptions } from "./mcp-server-options.js";
import {
  CODEMODE_RETRY_INPUT_JSON_SCHEMA,
  CODEMODE_TOOL,
  codemodeToolDefinition,
  DESCRIBE_TOOL,
  DESCRIBE_TOOL_DEFINITION,
  MAX_SEARCH_LIMIT,
  OUTCOME_TOOL,
  OUTCOME_TOOL_DEFINITION,
  SEARCH_TOOL,
  SEARCH_TOOL_DEFINITION,
  type McpToolDefinition,
} from "./mcp-tools.js";
import { settleApprovals, undecidedMessage, type AskPerson } from "./settle-approvals.js";
import { retryForLink, runForLink } from "./link-retry.js";
import { pausedForModernClient } from "./paused-for-modern-client.js";
import { type InputRequiredOutcome, retryForInputRequired, runForInputRequired } from "./input-required-approvals.js";
import {
  approvalStateSecret,
  DEFAULT_REQUEST_STATE_TTL_MS,
  decidedByOf,
  type InputRequiredToolResult,
  inputRequiredResult,
  type ModernApprovalRequest,
} from "./modern-approvals.js";
import { programLogListener, type SendProgramLog } from "./program-log.js";
import { type LinkElicitation, type LinkOutcome, settleByLinkElicitation } from "./settle-by-link.js";
import { errorResult, structuredResult, textResult, type ToolResult } from "./tool-result.js";

/** What a tool call gets from the MCP request. */
export interface ToolCallContext {
  /** Aborted when the client cancels the call or goes away. */
  signal: AbortSignal;
  /** The protocol revision of the request: `modern` is 2026-07-28 or later (no requests to the client). */
  era: "legacy" | "modern";
  /** Sends the program's console lines to the client as log messages, when it may get them. */
  log?: SendProgramLog | undefined;
  /** Asks the person (elicitation), when the client can be asked and the server may. */
  ask: AskPerson | undefined;
  /** A 2026-07-28 request's approval side: a paused call answers `input_required`, its retry decides. */
  input?: ModernApprovalRequest | undefined;
  /**
   * How approval links reach the person, with `approvalLinks` set: this session's URL-mode elicitation, or
   * (without a session) the `-32042` error the client retries after. `undefined`: no links for this call.
   */
  links?: { kind: "elicit"; session: LinkElicitation } | { kind: "retry" } | undefined;
  /**
   * The client declared MCP Apps: what the approval card's tokens are signed with. A paused call answers at once
   * with the card's payload (`approval-card.ts`) instead of eliciting, and the card's tool decides.
   */
  card?: ApprovalLinks | undefined;
}

/** The codemode MCP tools over one server's options (one scope). */
export interface McpToolCalls {
  /** `cards`: the client shows the approval card (the card's tool is listed, `codemode` names the card). */
  list(cards?: boolean): Promise<McpToolDefinition[]>;
  /** `undefined` for a tool this server does not have. */
  call(
    name: string,
    args: unknown,
    context: ToolCallContext,
  ): Promise<ToolResult | InputRequiredToolResult> | undefined;
  names(): string[];
  /** What `codemode_outcome` returns for `detail` (also a task's `tasks/result`). */
  outcome(runtime: CodemodeRuntime, detail: ExecutionDetail): Promise<ToolResult>;
}

function stringArgument(args: unknown, key: string): string | undefined {
  const value = typeof args === "object" && args !== null ? (args as Record<string, unknown>)[key] : undefined;
  return typeof value === "string" ? value : undefined;
}

/** The `codemode` tool's description (always a string: `runtime.tool()` builds it from the connectors). */
function descriptionOf(tool: CodemodeTool): string {
  return typeof tool.description === "string" ? tool.description : "";
}

/**
 * The tool calls of a server with `options`. `onListChanged` is told when a call meets another runtime
 * than the one the tool list came from (a proxy rebuilt it: a server that failed to start is back).
 * `retryIds`: paused calls answer `-32042` with a retry id, which `codemode` takes back as `retry`.
 */
export function createMcpToolCalls(
  options: ResolvedMcpServerOptions,
  onListChanged: () => void,
  retryIds = false,
): McpToolCalls {
  const tools = new WeakMap<CodemodeRuntime, CodemodeTool>();
  let listed: CodemodeRuntime | undefined;
  const { scope } = options;
  const scoped = scope === undefined ? {} : { scope };

  const toolOf = (runtime: CodemodeRuntime): CodemodeTool => {
    let tool = tools.get(runtime);
    if (tool === undefined) {
      tool = runtime.tool({
        inlineTypes: options.inlineTypes,
        progress: false,
        ...scoped,
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      });
      tools.set(runtime, tool);
    }
    return tool;
  };

  /** The model's view of `output` (the same as `runtime.tool()`'s `toModelOutput`), with `message`. */
  const present = async (runtime: CodemodeRuntime, output: CodemodeOutput, message?: string): Promise<ToolResult> => {
    const model = await toolOf(runtime).toModelOutput?.({ toolCallId: "", input: { code: "" }, output });
    return structuredResult(model?.type === "json" ? model.value : null, message);
  };

  const presentLink = (runtime: CodemodeRuntime, outcome: LinkOutcome): Promise<ToolResult> => {
    if (outcome.kind === "refused") return Promise.resolve(errorResult(outcome.message));
    if (outcome.kind === "state") return Promise.resolve(structuredResult(outcome.view, outcome.message));
    return present(runtime, outcome.output, outcome.message);
  };

  const withRuntime = async <R extends ToolResult | InputRequiredToolResult>(
    run: (runtime: CodemodeRuntime) => Promise<R | ToolResult>,
  ): Promise<R | ToolResult> => {
    let runtime: CodemodeRuntime;
    try {
      runtime = await options.runtime();
    } catch (error) {
      return errorResult(`The codemode runtime could not start: ${messageOf(error)}`);
    }
    if (listed !== undefined && listed !== runtime) {
      listed = runtime;
      onListChanged();
    }
    try {
      return await run(runtime);
    } catch (error) {
      // The one protocol error a tool call answers with: the client shows the link, then retries the call.
      if (error instanceof UrlElicitationRequiredError) throw error;
      return errorResult(`The codemode server failed: ${messageOf(error)}`);
    }
  };

  /** A 2026-07-28 client's call: runs, or (with a request state) decides from the person's answer; never both. */
  const runModern = async (
    runtime: CodemodeRuntime,
    code: string,
    input: ModernApprovalRequest,
    secret: HmacSecret,
    context: ToolCallContext,
  ): Promise<ToolResult | InputRequiredToolResult> => {
    const links = input.url ? options.approvalLinks : undefined;
    const settings = {
      runtime,
      scope,
      secret,
      ttlMs: options.approvalLinks?.ttlMs ?? DEFAULT_REQUEST_STATE_TTL_MS,
      form: input.form,
      links,
      hint: options.approvalHint,
      timeoutMs: options.elicitation ?? 0,
      decidedBy: decidedByOf(scope),
      signal: context.signal,
      onProgress: context.log === undefined ? undefined : programLogListener(context.log),
      now: Date.now,
      code,
    };
    const outcome: InputRequiredOutcome =
      input.requestState === undefined
        ? await runForInputRequired(settings)
        : await retryForInputRequired({
            ...settings,
            requestState: input.requestState,
            inputResponses: input.inputResponses ?? {},
          });
    return outcome.kind === "input_required" ? inputRequiredResult(outcome) : presentLink(runtime, outcome);
  };

  const runProgram = (args: unknown, context: ToolCallContext): Promise<ToolResult | InputRequiredToolResult> =>
    withRuntime(async (runtime) => {
      const code = stringArgument(args, "code");
      if (code === undefined)
        return errorResult('codemode takes { "code": string }: the program (an async arrow function) as a string.');
      const { input } = context;
      // A request state that every instance can check needs the links' secret, or one process serving every round.
      const secret =
        context.era === "modern" && input !== undefined && options.elicitation !== undefined
          ? approvalStateSecret({ links: options.approvalLinks, runtime, sticky: input.sticky })
          : undefined;
      if (input !== undefined && secret !== undefined) return runModern(runtime, code, input, secret, context);
      const { approvalLinks: links } = options;
      const onProgress = context.log === undefined ? undefined : programLogListener(context.log);
      const linkSettings =
        links === undefined || context.links === undefined
          ? undefined
          : {
              runtime,
              scope,
              links,
              hint: options.approvalHint,
              timeoutMs: options.elicitation ?? 0,
              signal: context.signal,
              onProgress,
            };
      // Without a session a paused call answers -32042 with a retry id; a call carrying one never runs anything.
      const retryLinks = context.links?.kind === "retry" ? linkSettings : undefined;
      const retry = (args as Record<string, unknown>)["retry"];
      if (retry !== undefined) {
        if (retryLinks === undefined)
          return errorResult(
            'This server gives no retry ids (it answers paused calls itself): call codemode with { "code" } alone.',
          );
        if (typeof retry !== "string")
          return errorResult('"retry" must be the string a paused call\'s error gave. Nothing ran.');
        return presentLink(runtime, await retryForLink({ ...retryLinks, code, retry }));
      }
      if (retryLinks !== undefined) return presentLink(runtime, await runForLink({ ...retryLinks, code }));
      const output = await runtime.execute(
        { code, ...scoped },
        { abortSignal: context.signal, ...(onProgress === undefined ? {} : { onProgress }) },
      );
      // A client showing the approval card (MCP Apps, either revision) gets it instead of a form or link.
      if (context.card !== undefined && output.status === "paused")
        return withCardPayload(
          await present(runtime, output, cardMessage(output.executionId)),
          context.card,
          output,
          scope,
          code,
        );
      if (context.era === "modern" && output.status === "paused") {
        const paused = pausedForModernClient({ output, hint: options.approvalHint });
        return present(runtime, paused.output, paused.message);
      }
      if (linkSettings !== undefined && context.links?.kind === "elicit" && output.status === "paused")
        return presentLink(
          runtime,
          await settleByLinkElicitation({ ...linkSettings, output, session: context.links.session }),
        );
      const settled = await settleApprovals({
        runtime,
        output,
        scope,
        ask: context.ask,
        hint: options.approvalHint,
        signal: context.signal,
        onProgress,
      });
      return present(runtime, settled.output, settled.message);
    });

  const presentOutcome = (runtime: CodemodeRuntime, detail: ExecutionDetail): Promise<ToolResult> => {
    const read = executionOutcome(detail);
    if (read.kind === "state") return Promise.resolve(structuredResult(read.view, read.message));
    const message =
      read.output.status === "paused"
        ? undecidedMessage("No person has decided it yet", detail.executionId, options.approvalHint)
        : undefined;
    return present(runtime, read.output, message);
  };

  const search = (args: unknown): Promise<ToolResult> =>
    withRuntime(async (runtime) => {
      const query = stringArgument(args, "query");
      if (query === undefined) return errorResult(`${SEARCH_TOOL} takes { "query": string, "limit"?: number }.`);
      const limit = (args as { limit?: unknown }).limit;
      if (
        limit !== undefined &&
        (!Number.isSafeInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_SEARCH_LIMIT)
      )
        return errorResult(`${SEARCH_TOOL}: limit must be an integer from 1 to ${MAX_SEARCH_LIMIT}.`);
      const found = await runtime.search(query, limit === undefined ? {} : { limit: limit as number });
      return textResult(JSON.stringify(found));
    });

  const describe = (args: unknown): Promise<ToolResult> =>
    withRuntime(async (runtime) => {
      const target = stringArgument(args, "target");
      if (target === undefined) return errorResult(`${DESCRIBE_TOOL} takes { "target": string }.`);
      const described = await runtime.describe(target);
      if ("error" in described) return errorResult(described.error);
      return textResult(described.types);
    });

  const outcome = (args: unknown): Promise<ToolResult> =>
    withRuntime(async (runtime) => {
      const executionId = stringArgument(args, "executionId");
      if (executionId === undefined) return errorResult(`${OUTCOME_TOOL} takes { "executionId": string }.`);
      const detail = await runtime.execution(executionId, scoped);
      if (detail === undefined) return errorResult(`No execution ${JSON.stringify(executionId.slice(0, 200))} here.`);
      return presentOutcome(runtime, detail);
    });

  const names = (): string[] =>
    options.discoveryTools ? [CODEMODE_TOOL, SEARCH_TOOL, DESCRIBE_TOOL, OUTCOME_TOOL] : [CODEMODE_TOOL, OUTCOME_TOOL];

  return {
    names,
    outcome: presentOutcome,
    async list(cards = false) {
      const runtime = await options.runtime();
      listed = runtime;
      const codemode = codemodeToolDefinition(
        descriptionOf(toolOf(runtime)),
        retryIds ? CODEMODE_RETRY_INPUT_JSON_SCHEMA : CODEMODE_INPUT_JSON_SCHEMA,
      );
      const first = cards ? withApprovalCard(codemode) : codemode;
      const definitions = options.discoveryTools
        ? [first, SEARCH_TOOL_DEFINITION, DESCRIBE_TOOL_DEFINITION, OUTCOME_TOOL_DEFINITION]
        : [first, OUTCOME_TOOL_DEFINITION];
      return cards ? [...definitions, CARD_DECIDE_TOOL_DEFINITION] : definitions;
    },
    call(name, args, context) {
      if (name === CODEMODE_TOOL) return runProgram(args, context);
      const { card } = context;
      if (name === CARD_DECIDE_TOOL && card !== undefined)
        return withRuntime((runtime) => decideByCard({ runtime, links: card, scope, args, signal: context.signal }));
      if (name === OUTCOME_TOOL) return outcome(args);
      if (!options.discoveryTools) return undefined;
      if (name === SEARCH_TOOL) return search(args);
      if (name === DESCRIBE_TOOL) return describe(args);
      return undefined;
    },
  };
}
