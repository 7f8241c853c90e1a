/**
 * The AI SDK's `toolApproval` configuration applied to the calls a program makes (runtime option `toolApproval`,
 * docs/decisions/tool-callers.md): the same object `streamText` / `generateText` / `ToolLoopAgent` take, read with
 * the SDK's precedence — a generic function decides every call; a per-tool entry decides that tool's calls; a tool
 * without an entry keeps its own `needsApproval`. A local tool caller is never handed the generation's
 * `toolApproval`, so the app gives it to the runtime too; each routed tool is wrapped here, before it becomes a
 * method of the global `tools`:
 * - `"user-approval"`: the call pauses for a person, durably, like `needsApproval: true`;
 * - `"approved"` / `"not-applicable"` (or `undefined`): it runs without asking, even if the tool says otherwise;
 * - `"denied"`: it rejects inside the program without running (the program may catch it), journaled as an error.
 */
import type { ToolApprovalConfiguration, ToolApprovalStatus, ToolExecutionOptions, ToolSet } from "ai";
import { InvalidOptionError } from "../errors.js";
import { isRecord } from "../shared/is-record.js";

/** The `toolApproval` option: the AI SDK's own configuration type, for the tools of the global `tools`. */
export type CodemodeToolApproval = ToolApprovalConfiguration<ToolSet, Record<string, unknown>>;

const STATUS_TYPES = ["not-applicable", "approved", "denied", "user-approval"] as const;
type StatusType = (typeof STATUS_TYPES)[number];

/** A status as the SDK normalises it: `undefined` is `not-applicable`. */
interface Decision {
  type: StatusType;
  reason?: string | undefined;
}

function isStatusType(value: unknown): value is StatusType {
  return (STATUS_TYPES as readonly unknown[]).includes(value);
}

/** The normalised status, or `undefined` when `value` is not a status. */
function normalise(value: unknown): Decision | undefined {
  if (value === undefined) return { type: "not-applicable" };
  if (isStatusType(value)) return { type: value };
  if (isRecord(value) && isStatusType(value["type"])) {
    const reason = value["reason"];
    return typeof reason === "string" ? { type: value["type"], reason } : { type: value["type"] };
  }
  return undefined;
}

const STATUS_HINT = `a status ("user-approval", "approved", "denied", "not-applicable", or { type, reason }) or a function returning one`;

/** Refuses, at construction, a `toolApproval` that is neither a function nor an object of statuses and functions. */
function validate(toolApproval: unknown): asserts toolApproval is CodemodeToolApproval {
  if (typeof toolApproval === "function") return;
  if (!isRecord(toolApproval)) {
    throw new InvalidOptionError({
      path: "toolApproval",
      message: "must be a function ({ toolCall, … }) => status or an object of tool name → status or function",
    });
  }
  for (const [name, entry] of Object.entries(toolApproval)) {
    if (entry === undefined || typeof entry === "function" || normalise(entry) !== undefined) continue;
    throw new InvalidOptionError({ path: `toolApproval.${name}`, message: `must be ${STATUS_HINT}` });
  }
}

type NestedOptions = Pick<ToolExecutionOptions<unknown>, "toolCallId" | "messages"> & { context?: unknown };
type Decide = (input: unknown, options: NestedOptions) => Promise<Decision>;

/** How `toolApproval` decides the calls of tool `name`, or `undefined` when it leaves the tool's own policy. */
function deciderFor(toolApproval: CodemodeToolApproval, name: string, tools: ToolSet): Decide | undefined {
  const read = (status: unknown): Decision =>
    normalise(status) ?? { type: "denied", reason: `toolApproval returned an unknown status for ${name}` };
  if (typeof toolApproval === "function") {
    return async (input, { toolCallId, messages }) =>
      read(
        await toolApproval({
          toolCall: { type: "tool-call", toolCallId, toolName: name, input } as never,
          tools,
          toolsContext: {},
          runtimeContext: {},
          messages,
        }),
      );
  }
  const entry: unknown = Object.hasOwn(toolApproval, name) ? toolApproval[name] : undefined;
  if (entry === undefined) return undefined;
  if (typeof entry !== "function") {
    const fixed = read(entry);
    return async () => fixed;
  }
  const decide = entry as (input: unknown, options: unknown) => ToolApprovalStatus | PromiseLike<ToolApprovalStatus>;
  return async (input, { toolCallId, messages, context }) =>
    read(await decide(input, { toolCallId, messages, toolContext: context, runtimeContext: {} }));
}

/** Thrown inside a program (as the call's rejection) for a call `toolApproval` denied. */
function denial(name: string, reason: string | undefined): Error {
  const because = reason === undefined || reason === "" ? "" : `: ${reason}`;
  return new Error(`tools.${name} was denied by the app's toolApproval configuration and did not run${because}.`);
}

/**
 * `tools` with `toolApproval` applied (see the file header); `tools` itself when `toolApproval` is `undefined`.
 * Throws `InvalidOptionError` naming `toolApproval.<tool>` for an entry that is not a status or a function.
 */
export function applyToolApproval(tools: ToolSet, toolApproval: unknown): ToolSet {
  if (toolApproval === undefined) return tools;
  validate(toolApproval);
  const applied: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    const decide = deciderFor(toolApproval, name, tools);
    const execute = tool.execute;
    if (decide === undefined || execute === undefined) {
      applied[name] = tool;
      continue;
    }
    applied[name] = {
      ...tool,
      needsApproval: async (input: unknown, options: NestedOptions) =>
        (await decide(input, options)).type === "user-approval",
      // Decided again as the call runs: a denied call never reaches the tool, on any pass.
      execute: async (input: unknown, options: ToolExecutionOptions<unknown>) => {
        const decision = await decide(input, options);
        if (decision.type === "denied") throw denial(name, decision.reason);
        return execute.call(tool, input, options);
      },
    } as ToolSet[string];
  }
  return applied;
}
