/**
 * Call and cost budgets (SPEC §3.7): the call past a budget never runs, the run ends `limit` with a message that
 * says which budget and how to do the work in fewer calls; counts run over every pass of an execution (a replayed
 * call counts once), and the numbers are the ones journaled when the execution started.
 */
import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { connector } from "../../../src/connectors/connector.js";
import type { Connector } from "../../../src/connectors/types.js";
import { InvalidOptionError } from "../../../src/errors.js";
import { DEFAULT_MAX_CALLS } from "../../../src/runtime/limits-option.js";
import { resolveRuntimeOptions } from "../../../src/runtime/durable-runtime-options.js";
import { createMockConnector } from "../../../src/test/index.js";
import { memoryClient, testRuntime } from "../runtime-fixture.js";

/** A connector whose `get` counts its real invocations, and `charge` needs approval. */
function counted(extra: Partial<Connector["methods"][string]> = {}) {
  const invocations = { get: 0, charge: 0 };
  const shop: Connector = {
    methods: {
      get: {
        execute: (args) => {
          invocations.get += 1;
          return args;
        },
        ...extra,
      },
      charge: {
        needsApproval: true,
        execute: () => {
          invocations.charge += 1;
          return "charged";
        },
      },
    },
  };
  return { shop, invocations };
}

const errorOf = (out: unknown): string => (out as { error: string }).error;

describe("limits.maxCalls", () => {
  it("stops a loop of 10,000 awaited calls at the default budget: no call past it ran", async () => {
    const { shop, invocations } = counted();
    const runtime = testRuntime({ connectors: { shop } });
    const out = await runtime.execute({
      code: "async () => { let n = 0; for (let i = 0; i < 10000; i++) { await shop.get({ i }); n++; } return n; }",
    });
    expect(out).toMatchObject({ status: "error", kind: "limit" });
    expect(invocations.get).toBe(DEFAULT_MAX_CALLS);
    expect(errorOf(out)).toContain("limits.maxCalls");
    expect(errorOf(out)).toContain(`has made ${DEFAULT_MAX_CALLS.toLocaleString("en-US")}`);
    expect(errorOf(out)).toContain(`call #${DEFAULT_MAX_CALLS + 1} (shop.get) did not run`);
    expect(errorOf(out)).toMatch(/batch or list method.*Promise\.all does not help/);
    const detail = await runtime.execution(out.executionId);
    expect(detail?.calls).toHaveLength(DEFAULT_MAX_CALLS);
    expect(detail).toMatchObject({ status: "error", kind: "limit" });
  });

  it("counts calls issued together (Promise.all of 10,000): exactly the budget ran", async () => {
    const { shop, invocations } = counted();
    const runtime = testRuntime({ connectors: { shop }, limits: { maxCalls: 50 } });
    const out = await runtime.execute({
      code: "async () => Promise.all(Array.from({ length: 10000 }, (_, i) => shop.get({ i })))",
    });
    expect(out).toMatchObject({ status: "error", kind: "limit" });
    expect(errorOf(out)).toContain("call #51 (shop.get) did not run");
    // The run ends at call #51: calls admitted before it may be abandoned with the run, none past it ever runs.
    expect(invocations.get).toBeLessThanOrEqual(50);
    const calls = (await runtime.execution(out.executionId))?.calls ?? [];
    expect(calls.every((call) => call.seq <= 50)).toBe(true);
  });

  it("lets a program of exactly the budget complete", async () => {
    const { shop, invocations } = counted();
    const runtime = testRuntime({ connectors: { shop }, limits: { maxCalls: 3 } });
    const out = await runtime.execute({
      code: "async () => { for (let i = 0; i < 3; i++) await shop.get({ i }); return 'ok'; }",
    });
    expect(out).toMatchObject({ status: "completed", result: "ok" });
    expect(invocations.get).toBe(3);
  });

  it("counts a replayed call once, where it first ran, over every pass", async () => {
    const { shop, invocations } = counted();
    const runtime = testRuntime({ connectors: { shop }, limits: { maxCalls: 3 } });
    const code =
      "async () => { await shop.get({ a: 1 }); await shop.charge({}); await shop.get({ a: 2 }); await shop.get({ a: 3 }); }";
    const paused = await runtime.execute({ code });
    expect(paused.status).toBe("paused");
    const out = await runtime.approve({ executionId: paused.executionId });
    // get#1 (replayed, counted once) + charge + get#2 = 3; get#3 is the fourth call.
    expect(out).toMatchObject({ status: "error", kind: "limit" });
    expect(errorOf(out)).toContain("call #4 (shop.get) did not run");
    expect(invocations).toEqual({ get: 2, charge: 1 });
  });

  it("does not count a call a human rejected", async () => {
    const { shop, invocations } = counted();
    const runtime = testRuntime({ connectors: { shop }, limits: { maxCalls: 2 } });
    const code =
      "async () => { try { await shop.charge({}); } catch (error) { if (String(error).includes('Paused')) throw error; } await shop.get({ a: 1 }); await shop.get({ a: 2 }); return 'ok'; }";
    const paused = await runtime.execute({ code });
    const out = await runtime.decide({ executionId: paused.executionId, decisions: [{ seq: 1, approved: false }] });
    expect(out).toMatchObject({ status: "completed", result: "ok" });
    expect(invocations).toEqual({ get: 2, charge: 0 });
  });

  it("enforces the budget journaled with the execution when another runtime approves it", async () => {
    const store = memoryClient();
    const { shop, invocations } = counted();
    const starting = testRuntime({ store, connectors: { shop }, limits: { maxCalls: 2 } });
    const code = "async () => { await shop.get({ a: 1 }); await shop.charge({}); await shop.get({ a: 2 }); }";
    const paused = await starting.execute({ code });
    expect(paused.status).toBe("paused");
    const approving = testRuntime({ store, connectors: { shop }, limits: { maxCalls: 1_000 } });
    const out = await approving.approve({ executionId: paused.executionId });
    expect(out).toMatchObject({ status: "error", kind: "limit" });
    expect(errorOf(out)).toContain("may make 2 connector calls");
    expect(invocations).toEqual({ get: 1, charge: 1 });
  });
});

describe("a method's maxCalls", () => {
  it("stops the method past its own budget while other methods still run", async () => {
    const { shop, invocations } = counted({ maxCalls: 2 });
    const other = createMockConnector("other", { methods: { ping: {} } });
    const runtime = testRuntime({ connectors: { shop, other } });
    const out = await runtime.execute({
      code: "async () => { for (let i = 0; i < 5; i++) await other.ping({ i }); for (let i = 0; i < 5; i++) await shop.get({ i }); }",
    });
    expect(out).toMatchObject({ status: "error", kind: "limit" });
    expect(errorOf(out)).toContain("Call budget of shop.get exhausted: it may be called 2 times per execution");
    expect(errorOf(out)).toContain("call #8 did not run");
    expect(invocations.get).toBe(2);
    expect(other.ledger.count("other.ping")).toBe(5);
  });

  it("is a policy of connector(tools, { methods })", async () => {
    let sent = 0;
    const mail = connector(
      {
        send: tool({
          inputSchema: z.object({ to: z.string() }),
          execute: async () => {
            sent += 1;
            return "sent";
          },
        }),
      },
      { methods: { send: { maxCalls: 1 } } },
    );
    const runtime = testRuntime({ connectors: { mail } });
    const out = await runtime.execute({
      code: "async () => { await mail.send({ to: 'a' }); await mail.send({ to: 'b' }); }",
    });
    expect(out).toMatchObject({ status: "error", kind: "limit" });
    expect(errorOf(out)).toContain("mail.send");
    expect(sent).toBe(1);
  });

  it("is refused at construction when it is not a positive integer, naming the path", () => {
    const tools = { send: tool({ inputSchema: z.object({}), execute: async () => "ok" }) };
    expect(() => connector(tools, { methods: { send: { maxCalls: 0 } } })).toThrow(
      /methods\.send\.maxCalls must be a positive integer/,
    );
    const { shop } = counted({ maxCalls: 1.5 });
    expect(() => resolveRuntimeOptions({ connectors: { shop } })).toThrow(
      /connectors\.shop\.methods\.get\.maxCalls must be a positive integer/,
    );
  });
});

describe("limits.maxCost and a method's cost(args)", () => {
  /** An API billed per record: `export({ records })` costs its record count. */
  function billed(cost: (args: unknown) => number = (args) => (args as { records: number }).records) {
    let exported = 0;
    const crm: Connector = {
      methods: {
        export: {
          cost,
          execute: (args) => {
            exported += (args as { records: number }).records;
            return { records: (args as { records: number }).records };
          },
        },
        free: { execute: () => "free" },
      },
    };
    return { crm, exported: () => exported };
  }

  it("refuses the call whose cost would take the total past the budget; it does not run", async () => {
    const { crm, exported } = billed();
    const runtime = testRuntime({ connectors: { crm }, limits: { maxCost: 100 } });
    const out = await runtime.execute({
      code: "async () => { await crm.free({}); for (let i = 0; i < 10; i++) await crm.export({ records: 30 }); }",
    });
    expect(out).toMatchObject({ status: "error", kind: "limit" });
    expect(exported()).toBe(90);
    expect(errorOf(out)).toContain("may spend 100 (limits.maxCost) and 90 was spent");
    expect(errorOf(out)).toContain("call #5 (crm.export) would cost 30 and did not run");
    const detail = await runtime.execution(out.executionId);
    expect(detail?.calls.map((call) => call.cost)).toEqual([undefined, 30, 30, 30]);
  });

  it("sums the cost over passes from the journal, as another runtime with no cost budget approves", async () => {
    const store = memoryClient();
    const { crm, exported } = billed();
    const gate: Connector = { methods: { ask: { needsApproval: true, execute: () => "yes" } } };
    const code =
      "async () => { await crm.export({ records: 60 }); await gate.ask({}); await crm.export({ records: 30 }); await crm.export({ records: 30 }); }";
    const starting = testRuntime({ store, connectors: { crm, gate }, limits: { maxCost: 100 } });
    const paused = await starting.execute({ code });
    expect(paused.status).toBe("paused");
    const approving = testRuntime({ store, connectors: { crm, gate } });
    const out = await approving.approve({ executionId: paused.executionId });
    expect(out).toMatchObject({ status: "error", kind: "limit" });
    expect(errorOf(out)).toContain("90 was spent");
    expect(exported()).toBe(90);
  });

  it.each([
    [
      "throws",
      () => {
        throw new Error("no records field");
      },
      /crm\.export: its cost function threw \(no records field\); call #1 did not run/,
    ],
    [
      "returns NaN",
      () => Number.NaN,
      /crm\.export: its cost function returned NaN, not a finite number >= 0; call #1 did not run/,
    ],
    ["returns a negative number", () => -1, /returned -1, not a finite number >= 0/],
    ["returns a string", () => "3" as unknown as number, /returned string, not a finite number >= 0/],
  ])(
    "fails the call when the cost function %s: a clear error for the program, nothing run",
    async (_name, cost, message) => {
      const { crm, exported } = billed(cost);
      const runtime = testRuntime({ connectors: { crm }, limits: { maxCost: 100 } });
      const out = await runtime.execute({
        code: "async () => { try { await crm.export({ records: 1 }); } catch (error) { return String(error); } }",
      });
      expect(out.status).toBe("completed");
      expect((out as { result: string }).result).toMatch(message);
      expect(exported()).toBe(0);
      expect((await runtime.execution(out.executionId))?.calls).toEqual([]);
    },
  );
});

describe("what a call is billed", () => {
  it("the arguments that will run: an omitted limit is billed at its schema default, not the cost function's guess", async () => {
    const billedLimits: number[] = [];
    const crm = connector(
      {
        list: tool({
          inputSchema: z.object({ limit: z.number().default(1_000) }),
          execute: async ({ limit }) => ({ limit }),
        }),
      },
      {
        methods: {
          list: {
            // Sees the validated arguments: `limit` is there even when the program left it out.
            cost: (args) => {
              const limit = (args as { limit?: number }).limit ?? 5_000;
              billedLimits.push(limit);
              return limit;
            },
          },
        },
      },
    );
    const runtime = testRuntime({ connectors: { crm }, limits: { maxCost: 1_500 } });
    const out = await runtime.execute({ code: "async () => (await crm.list({})).limit" });
    expect(out, JSON.stringify(out)).toMatchObject({ status: "completed", result: 1_000 });
    expect(billedLimits).toEqual([1_000]);
    expect((await runtime.execution(out.executionId))?.calls.map((call) => call.cost)).toEqual([1_000]);
  });

  it("arguments the schema refuses are never priced (the cost function does not see them)", async () => {
    let priced = 0;
    const crm = connector(
      { list: tool({ inputSchema: z.object({ limit: z.number() }), execute: async () => "listed" }) },
      { methods: { list: { cost: () => ++priced } } },
    );
    const runtime = testRuntime({ connectors: { crm }, limits: { maxCost: 10 } });
    const out = await runtime.execute({
      code: "async () => { try { await crm.list({ limit: 'all' }); } catch (error) { return String(error); } }",
    });
    expect(out).toMatchObject({ status: "completed" });
    expect(priced).toBe(0);
  });

  it('a cost on a replay: "reexecute" method is refused at construction (it would run on every pass, charged once)', () => {
    const tools = { read: tool({ inputSchema: z.object({}), execute: async () => "ok" }) };
    expect(() => connector(tools, { methods: { read: { replay: "reexecute", cost: () => 30 } } })).toThrow(
      /methods\.read\.cost cannot be combined with replay: "reexecute"/,
    );
    const { shop } = counted({ replay: "reexecute", cost: () => 30 });
    expect(() => resolveRuntimeOptions({ connectors: { shop } })).toThrow(
      /connectors\.shop\.methods\.get\.cost cannot be combined with replay: "reexecute"/,
    );
    // Either alone is fine.
    expect(() => connector(tools, { methods: { read: { replay: "reexecute" } } })).not.toThrow();
    expect(() => connector(tools, { methods: { read: { cost: () => 30 } } })).not.toThrow();
  });
});

describe("the limits option", () => {
  it("takes maxCalls and maxCost beside the executor's budgets, and refuses bad values naming the path", () => {
    const resolved = resolveRuntimeOptions({ limits: { maxCalls: 5, maxCost: 2.5, timeoutMs: 1_000 } });
    expect(resolved.budgets).toMatchObject({ maxCalls: 5, maxCost: 2.5 });
    expect(resolved.limits.timeoutMs).toBe(1_000);
    expect(resolveRuntimeOptions({}).budgets).toMatchObject({ maxCalls: DEFAULT_MAX_CALLS, maxCost: undefined });
    const cases: Array<[unknown, string, RegExp]> = [
      [{ maxCalls: 0 }, "limits.maxCalls", /must be a positive integer \(got 0\)/],
      [{ maxCalls: 1.5 }, "limits.maxCalls", /must be a positive integer/],
      [{ maxCost: -1 }, "limits.maxCost", /must be a finite number >= 0 \(got -1\)/],
      [{ maxCost: Number.POSITIVE_INFINITY }, "limits.maxCost", /finite/],
      [{ maxCall: 5 }, "limits.maxCall", /did you mean "maxCalls"/],
      [{ timeoutMs: 0 }, "limits.timeoutMs", /positive integer/],
    ];
    for (const [limits, path, message] of cases) {
      let thrown: unknown;
      try {
        resolveRuntimeOptions({ limits: limits as never });
      } catch (error) {
        thrown = error;
      }
      expect(InvalidOptionError.isInstance(thrown), path).toBe(true);
      expect((thrown as InvalidOptionError).path).toBe(path);
      expect((thrown as Error).message).toMatch(message);
    }
  });
});
