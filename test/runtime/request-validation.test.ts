/**
 * Issue 12 item 5 (runtime side): the errors a user or a model meets are clear values. Argument validation
 * failures end a run with kind `validation`; a missing or malformed approval request resolves with a
 * `validation` error (never a store failure or a throw); a snippet reads the value given to
 * `codemode.run(name, input)` as `input`.
 */
import { describe, expect, it } from "vitest";
import type { DurableRuntime } from "../../src/runtime/durable-runtime.js";
import { createMockConnector } from "../../src/test/index.js";
import { testRuntime } from "./runtime-fixture.js";

const strictMail = () =>
  createMockConnector("mail", {
    methods: {
      send: {
        validate: (args: unknown) =>
          typeof (args as { to?: unknown })?.to === "string"
            ? { success: true as const, value: args }
            : { success: false as const, error: "mail.send: `to` must be a string (got number)" },
      },
    },
  });

describe("request validation", () => {
  it("an uncaught argument validation failure ends the run with kind validation (not exception)", async () => {
    const mail = strictMail();
    const runtime = testRuntime({ connectors: { mail } });
    const out = await runtime.execute({ code: "async () => mail.send({ to: 42 })" });
    expect(out).toMatchObject({ status: "error", kind: "validation" });
    expect((out as { error: string }).error).toContain("`to` must be a string");
    expect(mail.ledger.count("mail.send")).toBe(0);
    // Caught by the program, it is only the call's rejection; another uncaught error stays an exception.
    const caught = await runtime.execute({
      code: "async () => { try { await mail.send({ to: 1 }) } catch (e) { return 'fixed' } }",
    });
    expect(caught).toMatchObject({ status: "completed", result: "fixed" });
    expect(await runtime.execute({ code: "async () => { throw new Error('boom') }" })).toMatchObject({
      kind: "exception",
    });
  });

  it("approve/reject/rollback with a missing or malformed request resolve with a validation error", async () => {
    const runtime = testRuntime();
    const loose = runtime as unknown as {
      approve(request?: unknown): ReturnType<DurableRuntime["approve"]>;
      reject(request?: unknown): ReturnType<DurableRuntime["reject"]>;
      rollback(request?: unknown): ReturnType<DurableRuntime["rollback"]>;
    };
    const undefinedId = await runtime.approve({ executionId: undefined as unknown as string });
    expect(undefinedId).toMatchObject({ status: "error", kind: "validation", executionId: "" });
    expect((undefinedId as { error: string }).error).toMatch(/needs executionId/);
    await expect(loose.approve()).resolves.toMatchObject({ status: "error", kind: "validation" });
    await expect(loose.reject()).resolves.toMatchObject({ status: "error", kind: "validation" });
    await expect(loose.rollback()).resolves.toMatchObject({ status: "error", kind: "validation" });
    await expect(loose.approve({ executionId: "x", seq: -1 })).resolves.toMatchObject({ kind: "validation" });
    expect(await runtime.approve({ executionId: "no-such-id" })).toMatchObject({ status: "error", kind: "not-found" });
  });

  it("a snippet reads the value passed to codemode.run(name, input) as `input`", async () => {
    const runtime = testRuntime();
    const source = await runtime.execute({ code: "async () => ({ doubled: (input ?? { n: 0 }).n * 2 })" });
    expect(source).toMatchObject({ status: "completed", result: { doubled: 0 } });
    expect(await runtime.saveSnippet("double", { executionId: source.executionId })).toMatchObject({ status: "saved" });
    const out = await runtime.execute({ code: "async () => codemode.run('double', { n: 21 })" });
    expect(out).toMatchObject({ status: "completed", result: { doubled: 42 } });
  });
});
