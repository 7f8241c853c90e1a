/**
 * Type tests for the runtime's public output unions (narrowing by `status` gives each variant's fields) and its
 * retention options.
 */
import { describe, expectTypeOf, it } from "vitest";
import type {
  ApproveRequestInput,
  CodemodeOutput,
  CodemodeRuntime,
  CodemodeRuntimeOptions,
  ExecutionDetail,
  FailureKind,
  PendingAction,
  RejectOutput,
  RollbackOutput,
} from "../../src/index.js";
import type { EditedCall } from "../../src/runtime/types.js";

describe("CodemodeOutput", () => {
  it("narrows by status", () => {
    const output = {} as CodemodeOutput;
    if (output.status === "completed") expectTypeOf(output.result).toBeUnknown();
    if (output.status === "paused") expectTypeOf(output.pending).toEqualTypeOf<PendingAction[]>();
    if (output.status === "error") {
      expectTypeOf(output.kind).toEqualTypeOf<FailureKind>();
      expectTypeOf(output.error).toBeString();
    }
    expectTypeOf<CodemodeOutput["status"]>().toEqualTypeOf<"completed" | "paused" | "error">();
    expectTypeOf<CodemodeOutput["executionId"]>().toBeString();
  });

  it("names the calls approved with changes on every status, and approve takes args", () => {
    const output = {} as CodemodeOutput;
    expectTypeOf(output.edited).toEqualTypeOf<EditedCall[] | undefined>();
    expectTypeOf<Parameters<CodemodeRuntime["approve"]>[0]>().toEqualTypeOf<ApproveRequestInput>();
    expectTypeOf<{ executionId: "e"; seq: 2; args: { amount: 50 } }>().toExtend<ApproveRequestInput>();
    expectTypeOf<PendingAction["editable"]>().toEqualTypeOf<boolean | undefined>();
  });

  it("FailureKind includes the executor's kinds and the runtime's own", () => {
    expectTypeOf<"timeout" | "divergence" | "store" | "interrupted">().toExtend<FailureKind>();
    expectTypeOf<"nonsense">().not.toExtend<FailureKind>();
  });

  it("the handle's methods resolve with these unions", () => {
    expectTypeOf<CodemodeRuntime["execute"]>().returns.resolves.toEqualTypeOf<CodemodeOutput>();
    expectTypeOf<CodemodeRuntime["approve"]>().returns.resolves.toEqualTypeOf<CodemodeOutput>();
    expectTypeOf<CodemodeRuntime["reject"]>().returns.resolves.toEqualTypeOf<RejectOutput>();
    expectTypeOf<CodemodeRuntime["rollback"]>().returns.resolves.toEqualTypeOf<RollbackOutput>();
    expectTypeOf<CodemodeRuntime["execution"]>().returns.resolves.toEqualTypeOf<ExecutionDetail | undefined>();
  });
});

describe("retention options", () => {
  it("take maxExecutions (a count per owner, or Infinity) and retention { maxAgeMs?, minAgeMs? }", () => {
    expectTypeOf<CodemodeRuntimeOptions["maxExecutions"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<NonNullable<CodemodeRuntimeOptions["retention"]>>().toEqualTypeOf<{
      maxAgeMs?: number;
      minAgeMs?: number;
    }>();
    const options: CodemodeRuntimeOptions = { maxExecutions: Number.POSITIVE_INFINITY, retention: { maxAgeMs: 1 } };
    // @ts-expect-error: an unknown retention key
    const misspelt: CodemodeRuntimeOptions = { retention: { maxAge: 1 } };
    void options;
    void misspelt;
  });
});
