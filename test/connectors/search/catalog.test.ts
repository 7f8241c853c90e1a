import { describe, expect, it } from "vitest";
import { createCodemodeRuntime } from "../../../src/ai/create-codemode-runtime.js";
import { createCatalog } from "../../../src/connectors/search/catalog.js";
import { DEFAULT_CONNECTOR_DECLARATION_MAX_CHARS } from "../../../src/connectors/declarations.js";
import { compileDiagnostics } from "../fixtures/compile-typescript.js";
import { watchEventLoop } from "../../support/event-loop-watch.js";
import type { Connector } from "../../../src/connectors/types.js";

const github: Connector = {
  description: "GitHub REST API",
  methods: {
    list_pull_requests: {
      description: "List pull requests of a repository. Filters by state.",
      inputSchema: {
        type: "object",
        properties: { owner: { type: "string" }, repo: { type: "string" }, state: { enum: ["open", "closed", "all"] } },
        required: ["owner", "repo"],
      },
      execute: () => [],
    },
    createIssue: {
      description: "Create an issue in a repository.",
      inputSchema: {
        type: "object",
        properties: { title: { type: "string", description: "Issue title" } },
        required: ["title"],
      },
      outputSchema: { type: "object", properties: { number: { type: "integer" } }, required: ["number"] },
      needsApproval: true,
      execute: () => ({ number: 1 }),
    },
    "get-repo": { description: "Get a repository.", execute: () => ({}) },
  },
  skipped: [{ name: "ask_user", reason: "no execute function" }],
};

const stripe: Connector = {
  description: "Payments",
  methods: {
    create_refund: {
      description: "Refund a charge.",
      inputSchema: {
        type: "object",
        properties: { charge: { type: "string" }, amount: { type: "integer" } },
        required: ["charge"],
      },
      execute: () => ({}),
    },
    list_customers: {
      description: "List customers by email.",
      inputSchema: { type: "object", properties: { email: { type: "string" } } },
      execute: () => [],
    },
  },
};

const catalog = createCatalog({
  connectors: { github, stripe },
  snippets: [
    {
      name: "weekly_report",
      description: "Summarise merged pull requests of the week",
      code: "async () => {\n  return await github.list_pull_requests({ owner: 'a', repo: 'b' });\n}",
      inputSchema: { type: "object", properties: { since: { type: "string", format: "date-time" } } },
      connectors: ["github"],
    },
  ],
});

describe("createCatalog().search", () => {
  it("ranks methods by name words split on _ / - / camelCase, with the exact SearchOutput shape", () => {
    const out = catalog.search("pull requests");
    expect(Object.keys(out).sort()).toEqual(["results", "total", "truncated"]);
    expect(out.results[0]).toEqual({
      path: "github.list_pull_requests",
      connector: "github",
      method: "list_pull_requests",
      description: "List pull requests of a repository.",
      kind: "method",
      score: expect.any(Number),
    });
    expect(catalog.search("create issue").results[0]!.path).toBe("github.createIssue");
    expect(catalog.search("repo").results.map((r) => r.path)).toContain("github.get-repo");
  });

  it("finds methods by parameter names and descriptions, and snippets", () => {
    expect(catalog.search("email").results[0]!.path).toBe("stripe.list_customers");
    expect(catalog.search("refund").results[0]!.path).toBe("stripe.create_refund");
    const snippet = catalog.search("weekly report").results[0]!;
    expect(snippet).toMatchObject({
      path: "snippets.weekly_report",
      kind: "snippet",
      connector: "snippets",
      method: "weekly_report",
    });
  });

  it("is deterministic, breaks ties by path, and honours limit", () => {
    const first = catalog.search("list");
    expect(catalog.search("list")).toEqual(first);
    const all = catalog.search("");
    expect(all.results.map((r) => r.path)).toEqual([...all.results.map((r) => r.path)].sort());
    expect(all.total).toBe(6);
    const limited = catalog.search("", { limit: 2 });
    expect(limited.results).toHaveLength(2);
    expect(limited.truncated).toBe(true);
    expect(limited.total).toBe(6);
    const scores = catalog.search("repository").results;
    for (let index = 1; index < scores.length; index++) {
      const [a, b] = [scores[index - 1]!, scores[index]!];
      expect(a.score).toBeGreaterThanOrEqual(b.score); // ranked on the unrounded score; shown scores may tie
      expect(Number.isInteger(a.score) || a.score < 10).toBe(true);
    }
  });

  it("returns no results for unrelated words", () => {
    expect(catalog.search("zzzqqq")).toEqual({ results: [], total: 0, truncated: false });
  });
});

describe("createCatalog().describe", () => {
  it("describes a connector as one declare const with every method, marking approval and skipped tools", () => {
    const out = catalog.describe("github");
    if ("error" in out) throw new Error(out.error);
    expect(out.kind).toBe("connector");
    expect(out.path).toBe("github");
    expect(out).not.toHaveProperty("description"); // said once, as JSDoc in types
    expect(out.types).toContain("/** GitHub REST API */\ndeclare const github: {");
    expect(out.types).toContain("list_pull_requests(input: {");
    expect(out.types).toContain('state?: "open" | "closed" | "all";');
    expect(out.types).toContain("createIssue(input: {");
    expect(out.types).toContain('"get-repo"(input?: unknown): Promise<unknown>;');
    expect(out.types).toContain("Requires human approval");
    expect(out.types).toContain("Not callable from programs: ask_user (no execute function)");
  });

  it("describes a method with inline input and output types and its description once, as JSDoc", () => {
    const out = catalog.describe("github.createIssue");
    if ("error" in out) throw new Error(out.error);
    expect(out).toEqual({
      path: "github.createIssue",
      kind: "method",
      types: [
        "declare const github: {",
        "  /**",
        "   * Create an issue in a repository.",
        '   * Requires human approval: the run pauses (status "paused") until approved.',
        "   */",
        "  createIssue(input: {",
        "    /** Issue title */",
        "    title: string;",
        "  }): Promise<{ number: number }>;",
        "};",
      ].join("\n"),
    });
  });

  it("says each description once, in types as JSDoc, never again in a description field", () => {
    const withFetch = createCatalog({
      connectors: { github, stripe },
      snippets: [],
      globals: [
        {
          name: "fetch",
          description: "HTTP request.",
          types: "/** HTTP request. */\ndeclare function fetch(url: string): Promise<unknown>;",
          params: [],
        },
      ],
    });
    const cases: Array<[typeof catalog, string, string]> = [
      [catalog, "github", "GitHub REST API"],
      [catalog, "stripe.create_refund", "Refund a charge."],
      [catalog, "snippets.weekly_report", "Summarise merged pull requests of the week"],
      [withFetch, "fetch", "HTTP request."],
    ];
    for (const [source, target, description] of cases) {
      const out = source.describe(target);
      if ("error" in out) throw new Error(out.error);
      expect(Object.keys(out).sort()).toEqual(["kind", "path", "types"]);
      expect(out.types).toContain(description);
    }
  });

  it("carries the connector's instructions into a method's declaration", () => {
    const withInstructions = createCatalog({
      connectors: { stripe: { ...stripe, instructions: "Amounts are in cents." } },
      snippets: [],
    });
    const out = withInstructions.describe("stripe.create_refund");
    if ("error" in out) throw new Error(out.error);
    expect(out.types).toContain("/** Amounts are in cents. */\ndeclare const stripe: {");
  });

  it("describes a snippet with its input type and code", () => {
    const out = catalog.describe("snippets.weekly_report");
    if ("error" in out) throw new Error(out.error);
    expect(out.kind).toBe("snippet");
    expect(out.types).toContain("type WeeklyReportInput = {");
    expect(out.types).toContain("@format date-time");
    expect(out.types).toContain('await codemode.run("weekly_report", input?: WeeklyReportInput)');
    expect(out.types).toContain("//     return await github.list_pull_requests");
  });

  it("answers unknown targets with an error and suggestions", () => {
    const out = catalog.describe("github.list_pulls");
    expect(out).toEqual({ error: expect.stringContaining('No method "list_pulls" in github') });
    expect((out as { error: string }).error).toContain("Did you mean github.list_pull_requests");
    expect(catalog.describe("gitlab")).toEqual({
      error: expect.stringContaining("Namespaces: github, stripe, snippets"),
    });
    expect(catalog.describe("github.ask_user")).toEqual({
      error: expect.stringContaining("cannot be called from a program"),
    });
    expect(catalog.describe("")).toEqual({ error: expect.stringContaining("needs a path") });
  });
});

describe("describe of a very large connector", () => {
  it("lists methods compactly with elided types instead of flooding the context, and still compiles", () => {
    const methods: Connector["methods"] = {};
    for (let index = 0; index < 800; index++) {
      methods[`operation_${index}`] = {
        description: `Does thing number ${index}. More detail that is not part of the summary.`,
        inputSchema: {
          type: "object",
          properties: { id: { type: "string", description: "Identifier of the thing." }, limit: { type: "integer" } },
          required: ["id"],
        },
        execute: () => null,
      };
    }
    const big = createCatalog({ connectors: { huge: { description: "A huge API.", methods } }, snippets: [] });
    const out = big.describe("huge");
    if ("error" in out) throw new Error(out.error);
    expect(out.types.length).toBeLessThan(DEFAULT_CONNECTOR_DECLARATION_MAX_CHARS + 1000);
    expect(out.types).toContain("800 methods: types elided here");
    expect(out.types).toContain("  /** Does thing number 0. */\n  operation_0(input: object): Promise<unknown>;");
    expect(out.types).toMatch(/\/\/ …and \d+ more methods: find them with codemode.search/);
    expect(compileDiagnostics({ "huge.ts": out.types })).toEqual([]);
    const method = big.describe("huge.operation_799");
    if ("error" in method) throw new Error(method.error);
    expect(method.types).toContain("id: string;");
  });
});

/**
 * Runs `work` while a 5 ms interval watches the host event loop; returns its result and the largest time the main
 * thread ran within one gap (not the gap itself: a loaded machine delays timers by itself).
 */
async function watchingTheLoop<T>(work: () => Promise<T>): Promise<{ value: T; largestGap: number }> {
  const monitor = watchEventLoop();
  try {
    const value = await work();
    return { value, largestGap: monitor.stop().largestBusyGapMs };
  } finally {
    monitor.stop();
  }
}

describe("hostile search and describe through the runtime (default isolation)", () => {
  it("a 300,000-word query and a 40,000-character term do not stall the host, and still give sensible answers", async () => {
    const runtime = createCodemodeRuntime({ connectors: { github, stripe }, store: ":memory:" });
    try {
      // Warm up first: the worker's start is not what is measured.
      expect(await runtime.execute({ code: "async () => 1" })).toMatchObject({ status: "completed" });
      const attempt = () =>
        watchingTheLoop(() =>
          runtime.execute({
            code: `async () => {
            // 300,002 words in 600,014 characters: under the sandbox's value bound, so search itself must bound it.
            const query = "refund charge " + "a b ".repeat(150000);
            const searches = [];
            for (let i = 0; i < 3; i++) searches.push(await codemode.search(query));
            const term = "p".repeat(40000);
            const described = [];
            for (let i = 0; i < 3; i++) described.push(await codemode.describe(term), await codemode.describe("github." + term));
            // Over the value bound (1,000,000 characters): refused with the limit, not searched as "".
            const refused = await codemode.search("refund ".repeat(200000)).then(() => "searched", (e) => e.message);
            return { first: searches.map((s) => s.results[0]?.path), described: described.map((d) => d.error.length), refused };
          }`,
          }),
        );
      // Best of five: without the bounds every attempt stalls for seconds; with them the host's own work is a
      // few milliseconds, and a measurement on a shared, loaded machine can still catch a scheduling pause.
      let { value: out, largestGap } = await attempt();
      for (let retry = 0; retry < 4 && largestGap > 50; retry += 1) ({ value: out, largestGap } = await attempt());
      expect(out.status).toBe("completed");
      const result = (out as { result: { first: string[]; described: number[]; refused: string } }).result;
      expect(result.refused).toMatch(/maxValueChars|1,000,000/);
      expect(result.first).toEqual(["stripe.create_refund", "stripe.create_refund", "stripe.create_refund"]);
      // The messages name the target cut short, not 40,000 characters of it.
      for (const length of result.described) expect(length).toBeLessThan(600);
      expect(largestGap).toBeLessThanOrEqual(50);
    } finally {
      await runtime.close();
    }
  }, 60_000);
});
