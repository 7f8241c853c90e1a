/**
 * The codemode tool as an AI SDK local tool caller (docs/decisions/tool-callers.md): the tool the model
 * sees keeps one definition whatever is routed to it (so a provider's prompt cache keeps it), the SDK's
 * `prepareModelMessage` announces the namespaces in a message, and `bind(tools)` gives the durable tool over the
 * routed tools. The SDK binds on every step of every request: the last routed set is remembered, so the steps of a
 * request reuse one bound tool and one announcement.
 */
import { experimental_toolCaller, type Experimental_ToolCallerTool, type ToolSet } from "ai";
import { CodemodeArgumentError, InvalidOptionError } from "../errors.js";
import type { CodemodeOutput } from "../runtime/types.js";
import type { CodemodeTool } from "./build-codemode-tool.js";

/** The codemode tool as a local tool caller: name it in `experimental_toolCallers` to route tools to it. */
export type CodemodeToolCaller = Experimental_ToolCallerTool<CodemodeTool>;

/** What one routed tool set binds to: the tool that runs programs, and the message announcing its namespaces. */
export interface CallerBinding {
  tool: CodemodeTool;
  announcement: () => string;
}

/** What the tool answers when the SDK ran it without binding it (no `experimental_toolCallers` was given). */
export const NOT_BOUND_ERROR =
  "This codemode tool is an AI SDK tool caller and was not bound to any tools: the app must pass " +
  '`experimental_toolCallers` (e.g. { getWeather: ["codemode"] }) to streamText, generateText or ToolLoopAgent, ' +
  "so that the tools routed to it become the global `tools`. Nothing was run; tell the user.";

/** The output of an unbound caller's `execute`: nothing runs, nothing is stored. */
export function notBoundOutput(): CodemodeOutput {
  return { status: "error", executionId: crypto.randomUUID(), kind: "connector-missing", error: NOT_BOUND_ERROR };
}

function sameTools(a: ToolSet, b: ToolSet): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}

/** `bindingFor`, remembering its last routed set (same names, same tool objects) and that set's announcement. */
function rememberLast(bindingFor: (routed: ToolSet) => CallerBinding): (routed: ToolSet) => CallerBinding & {
  message: () => string;
} {
  let last: { routed: ToolSet; binding: CallerBinding; message?: string } | undefined;
  return (routed) => {
    if (last === undefined || !sameTools(last.routed, routed)) last = { routed, binding: bindingFor(routed) };
    const entry = last;
    return {
      ...entry.binding,
      message: () => {
        entry.message ??= entry.binding.announcement();
        return entry.message;
      },
    };
  };
}

/** The caller: `unbound` is what the model sees (and what runs when nothing bound it). */
export function buildCodemodeToolCaller({
  unbound,
  bindingFor,
}: {
  unbound: CodemodeTool;
  bindingFor: (routed: ToolSet) => CallerBinding;
}): CodemodeToolCaller {
  const binding = rememberLast(bindingFor);
  const caller = experimental_toolCaller(unbound, {
    type: "local",
    bind: (routed) => binding(routed).tool,
    prepareModelMessage: (routed) => binding(routed).message(),
  });
  bindings.set(caller, binding);
  return caller;
}

/** How each caller built here binds, for a caller composed of others (`codemodeTool()`). */
const bindings = new WeakMap<CodemodeToolCaller, (routed: ToolSet) => CallerBinding>();

/** What `caller` (built by {@link buildCodemodeToolCaller}) binds `routed` to. */
export function callerBinding(caller: CodemodeToolCaller, routed: ToolSet): CallerBinding {
  const binding = bindings.get(caller);
  if (binding === undefined)
    throw new CodemodeArgumentError({ argument: "caller", message: "was not built by ai-codemode" });
  return binding(routed);
}

/**
 * Refuses a routing that does not match the runtime's `tools` (for `runtime.toolCaller()`): the sandbox's global
 * `tools` must be exactly the tools routed to codemode, the same objects (so a tool routed to both paths has one
 * approval policy), because the runtime's own tools are what `approve` replays with in another process.
 */
export function assertRoutedTools({ routed, tools }: { routed: ToolSet; tools: ToolSet }): void {
  const missing = Object.keys(routed).filter((name) => !Object.hasOwn(tools, name));
  const extra = Object.keys(tools).filter((name) => !Object.hasOwn(routed, name));
  const other = Object.keys(routed).filter((name) => Object.hasOwn(tools, name) && routed[name] !== tools[name]);
  if (missing.length === 0 && extra.length === 0 && other.length === 0) return;
  const problems = [
    missing.length === 0 ? "" : `routes ${missing.join(", ")} to codemode, but the runtime's \`tools\` lack them`,
    extra.length === 0 ? "" : `does not route ${extra.join(", ")} to codemode, but the runtime's \`tools\` have them`,
    other.length === 0 ? "" : `routes ${other.join(", ")}, but not the same tool objects as the runtime's \`tools\``,
  ].filter((problem) => problem !== "");
  throw new InvalidOptionError({
    path: "experimental_toolCallers",
    message:
      `${problems.join("; ")}. runtime.toolCaller() runs programs over the runtime's own \`tools\` (what approve() ` +
      "replays with in any process): create the runtime with exactly the tools you route to codemode, e.g. " +
      "createCodemodeRuntime({ tools: routed }) and tools: { ...routed, codemode: runtime.toolCaller() }.",
  });
}
