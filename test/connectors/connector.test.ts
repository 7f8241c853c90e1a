import { tool } from "@ai-sdk/provider-utils";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { connector } from "../../src/connectors/connector.js";
import { resolveConnector } from "../../src/connectors/resolve-connector.js";
import { InvalidOptionError } from "../../src/errors.js";

const tools = {
  create_issue: tool({
    description: "Create an issue",
    inputSchema: z.object({ title: z.string() }),
    execute: async ({ title }) => ({ number: 1, title }),
  }),
  list_issues: tool({ inputSchema: z.object({}), execute: async () => [] }),
  close_issue: tool({ inputSchema: z.object({ number: z.number() }), needsApproval: true, execute: async () => true }),
};

function thrownPath(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    return (error as InvalidOptionError).path;
  }
  throw new Error("expected an InvalidOptionError");
}

describe("connector()", () => {
  it("applies per-method policy, description, instructions and hooks", async () => {
    const revert = async (): Promise<void> => {};
    const onPassEnd = (): void => {};
    const disposeExecution = (): void => {};
    const wrapped = connector(tools, {
      description: "Issue tracker",
      instructions: "Always search before creating.",
      methods: {
        create_issue: { needsApproval: true, revert },
        list_issues: { replay: "reexecute" },
        close_issue: { needsApproval: false },
      },
      onPassEnd,
      disposeExecution,
    });
    const resolved = resolveConnector("issues", wrapped);
    expect(resolved.description).toBe("Issue tracker");
    expect(resolved.instructions).toBe("Always search before creating.");
    expect(resolved.onPassEnd).toBe(onPassEnd);
    expect(resolved.disposeExecution).toBe(disposeExecution);
    expect(resolved.methods["create_issue"]).toMatchObject({ needsApproval: true, revert, replay: "record" });
    expect(resolved.methods["list_issues"]!.replay).toBe("reexecute");
    expect(resolved.methods["close_issue"]!.needsApproval).toBe(false);
  });

  it("names the real connector in validation errors once resolved", async () => {
    const resolved = resolveConnector("tracker", connector(tools));
    const result = await resolved.methods["create_issue"]!.validate!({});
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error).toContain("Invalid arguments for tracker.create_issue(input):");
  });

  it("refuses reexecute on a method that needs approval", () => {
    expect(thrownPath(() => connector(tools, { methods: { close_issue: { replay: "reexecute" } } }))).toBe(
      "connector().methods.close_issue.replay",
    );
    expect(
      thrownPath(() =>
        connector(tools, { methods: { list_issues: { replay: "reexecute", needsApproval: () => true } } }),
      ),
    ).toBe("connector().methods.list_issues.replay");
  });

  it("refuses policies for unknown methods and malformed options", () => {
    expect(thrownPath(() => connector(tools, { methods: { nope: {} } as never }))).toBe("connector().methods.nope");
    expect(thrownPath(() => connector(tools, { methods: { list_issues: { replay: "sometimes" as never } } }))).toBe(
      "connector().methods.list_issues.replay",
    );
    expect(thrownPath(() => connector(tools, { onPassEnd: 1 as never }))).toBe("connector().onPassEnd");
    expect(thrownPath(() => connector(null as never))).toBe("connector()");
  });

  it("refuses a misspelt policy or option key with the path and the closest known key (a typo must not turn approval off)", () => {
    const thrown = (fn: () => unknown): InvalidOptionError => {
      try {
        fn();
      } catch (error) {
        return error as InvalidOptionError;
      }
      throw new Error("expected an InvalidOptionError");
    };
    const pay = thrown(() => connector(tools, { methods: { create_issue: { needsAproval: true } as never } }));
    expect(pay.path).toBe("connector().methods.create_issue.needsAproval");
    expect(pay.message).toContain('did you mean "needsApproval"?');
    for (const old of ["requiresApproval", "requireApproval"]) {
      const renamed = thrown(() => connector(tools, { methods: { create_issue: { [old]: true } as never } }));
      expect([renamed.path, renamed.message]).toEqual([
        `connector().methods.create_issue.${old}`,
        `connector().methods.create_issue.${old} is not a known option (renamed: use "needsApproval")`,
      ]);
    }
    const option = thrown(() => connector(tools, { method: {} } as never));
    expect([option.path, option.message.includes('did you mean "methods"?')]).toEqual(["connector().method", true]);
    const tool = thrown(() => connector(tools, { methods: { create_isue: { needsApproval: true } } as never }));
    expect([tool.path, tool.message.includes('did you mean "create_issue"?')]).toEqual([
      "connector().methods.create_isue",
      true,
    ]);
    expect(thrownPath(() => connector(tools, { methods: { create_issue: true as never } }))).toBe(
      "connector().methods.create_issue",
    );
  });
});
