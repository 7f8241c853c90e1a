/**
 * The scenario of the crash-point matrix: a program whose first pass runs
 * calls, a `Promise.all` group and a step, then pauses for approval; the
 * approval finishes it; a rollback reverts it. Shared by the in-process
 * matrix (store errors) and the process-kill fixture (file database).
 */
import type { DurableRuntime } from "../../../src/runtime/durable-runtime.js";
import type { CodemodeOutput, ExecutionDetail } from "../../../src/runtime/types.js";

/** The program. */
const CRASH_PROGRAM = `async () => {
  const a = await svc.rev({ n: 1, k: "a" });
  const [b, c] = await Promise.all([svc.plain({ n: 2, k: "b" }), svc.rev({ n: 3, k: "c" })]);
  const s = await codemode.step("s", () => a.d + b.d);
  const g = await svc.gated({ n: 4, k: "g" });
  const r = await svc.rev({ n: 5, k: "r" });
  return [a.d, b.d, c.d, s, g.d, r.d];
}`;

/** Its result when it completes. */
export const CRASH_RESULT = [2, 4, 6, 6, 8, 10];

/** The three phases whose writes the matrix enumerates. */
export type CrashPhase = "pass" | "approval" | "rollback";
export const CRASH_PHASES: CrashPhase[] = ["pass", "approval", "rollback"];

/** Runs one phase (`pass` starts the execution and returns its id). */
export async function runPhase(
  runtime: DurableRuntime,
  phase: CrashPhase,
  executionId: string | undefined,
): Promise<{ executionId: string; output: unknown }> {
  if (phase === "pass") {
    const output = await runtime.execute({ code: CRASH_PROGRAM });
    return { executionId: output.executionId, output };
  }
  if (executionId === undefined) throw new Error(`phase ${phase} needs an execution`);
  const output =
    phase === "approval" ? await runtime.approve({ executionId }) : await runtime.rollback({ executionId });
  return { executionId, output };
}

/** Recovery and continuation: approve while paused, then roll back once the run ended. Returns the outputs seen. */
export async function finishScenario(
  runtime: DurableRuntime,
  executionId: string,
): Promise<Array<CodemodeOutput | unknown>> {
  const seen: unknown[] = [];
  for (let round = 0; round < 4; round += 1) {
    const detail = await runtime.execution(executionId);
    if (detail === undefined || detail.status === "rolled_back") break;
    if (detail.status === "paused") seen.push(await runtime.approve({ executionId }));
    else if (detail.status === "running") break;
    else {
      seen.push(await runtime.rollback({ executionId }));
      break;
    }
  }
  return seen;
}

/** One observed effect: `execute` or `revert` of a call, by idempotency key. */
export interface ObservedEffect {
  kind: "execute" | "revert";
  method: string;
  key: string;
}

/**
 * The invariants after recovery: no effect or revert ran twice; every applied
 * or reverted row has its one effect; pending rows none; reverted rows one
 * revert; nothing revertible is left applied once the scenario finished; a
 * completed run has the right result. Returns the problems (empty when fine).
 */
export function scenarioProblems(
  detail: ExecutionDetail | undefined,
  effects: ObservedEffect[],
  finished: boolean,
): string[] {
  const problems: string[] = [];
  const count = (kind: ObservedEffect["kind"], key: string) =>
    effects.filter((effect) => effect.kind === kind && effect.key === key).length;
  for (const effect of effects) {
    if (effect.method !== "read" && count(effect.kind, effect.key) > 1)
      problems.push(`${effect.kind} of ${effect.key} ran ${count(effect.kind, effect.key)} times`);
  }
  if (detail === undefined) {
    if (effects.length > 0) problems.push("effects ran for an execution that does not exist");
    return [...new Set(problems)];
  }
  for (const call of detail.calls) {
    if (call.connector !== "svc") continue;
    const key = `${detail.executionId}:${call.seq}`;
    const ran = count("execute", key);
    if ((call.status === "applied" || call.status === "reverted") && ran !== 1)
      problems.push(`#${call.seq} is ${call.status} but ran ${ran} times`);
    if (call.status === "pending" && ran !== 0) problems.push(`#${call.seq} is pending but ran ${ran} times`);
    if (call.status === "reverted" && count("revert", key) !== 1)
      problems.push(`#${call.seq} is reverted but was reverted ${count("revert", key)} times`);
    const reverting = call.error?.startsWith("reverting:") === true;
    if (call.status === "applied" && !reverting && count("revert", key) !== 0)
      problems.push(`#${call.seq} is applied but was reverted`);
    // A call marked "reverting" by a rollback that died has an unknown outcome: it is reported, never reverted twice.
    if (finished && call.status === "applied" && call.method !== "plain" && !reverting)
      problems.push(`#${call.seq} (${call.method}) is still applied after the rollback`);
  }
  if (detail.status === "running") problems.push("the execution is still running after recovery");
  if (detail.status === "completed" && JSON.stringify(detail.result) !== JSON.stringify(CRASH_RESULT))
    problems.push(`wrong result ${JSON.stringify(detail.result)}`);
  return [...new Set(problems)];
}
