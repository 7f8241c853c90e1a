import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { syntheticToolSets } from "../../bench/synthetic-tools.js";
import { resolveConnector } from "../../src/connectors/resolve-connector.js";
import type { Connector } from "../../src/connectors/types.js";
import { CODEMODE_INPUT_JSON_SCHEMA } from "../../src/ai/codemode-input-schema.js";
import { buildToolDescription, namespaceHint, representativeMethods } from "../../src/ai/tool-description.js";
import { createCatalog } from "../../src/connectors/search/catalog.js";

function connectorsFor(count: number): Record<string, Connector> {
  return Object.fromEntries(
    Object.entries(syntheticToolSets(count)).map(([name, tools]) => [name, resolveConnector(name, tools)]),
  );
}

const small: Record<string, Connector> = {
  github: {
    description: "GitHub issues and pull requests. Use owner/repo pairs.",
    methods: {
      list_issues: {
        description: "List issues",
        inputSchema: { type: "object", properties: { repo: { type: "string" } }, required: ["repo"] },
        execute: () => [],
      },
    },
  },
  weather: { methods: { forecast: { execute: () => ({}) } } },
};

describe("buildToolDescription", () => {
  it("teaches search → describe → call, paused, and no fetch, naming each namespace with a hint", () => {
    const text = buildToolDescription({ connectors: small, inlineTypes: false });
    expect(text).toContain("- github: GitHub issues and pull requests. (1 method)");
    expect(text).toContain("- weather: forecast (1 method)");
    expect(text).toContain("codemode.search(");
    expect(text).toContain("codemode.describe(");
    expect(text).toContain("await github.method(");
    expect(text).toMatch(/paused: a call awaits human approval; tell the user, don't retry or work around it/);
    expect(text).toMatch(/No fetch, require, process or timers/);
    expect(text).toContain(
      "codemode.run(name, input) runs a saved snippet; codemode.step(name, fn) records a value once; console.log → logs.",
    );
    expect(text).toContain("return only what you need");
    expect(
      text.startsWith(
        "Runs JavaScript/TypeScript in a sandbox. Namespaces are globals of async methods taking one object:",
      ),
    ).toBe(true);
    expect(text).not.toContain("declare const");
  });

  it("inlines full declarations with inlineTypes auto when they are small, and not when false", () => {
    const auto = buildToolDescription({ connectors: small });
    expect(auto).toContain("declare const github: {");
    expect(auto).toContain("list_issues(input: {");
    expect(auto).toContain("declare const weather: {");
    expect(buildToolDescription({ connectors: small, inlineTypes: false })).not.toContain("declare const");
  });

  it("leaves declarations out with auto when they would exceed the budget, and forces them with true", () => {
    const connectors = connectorsFor(100);
    expect(buildToolDescription({ connectors })).not.toContain("declare const");
    expect(buildToolDescription({ connectors, inlineTypes: true })).toContain("declare const crm: {");
  });

  it.each([10, 100, 1000, 5000])("stays under 1,000 o200k tokens with %i tools", (count) => {
    const text = buildToolDescription({ connectors: connectorsFor(count) });
    expect(countTokens(text)).toBeLessThan(1000);
  });

  it("counts namespaces beyond the budget instead of listing them", () => {
    const many: Record<string, Connector> = {};
    for (let index = 0; index < 300; index++) {
      many[`service${index}`] = {
        description: `Service number ${index} with a fairly long description of what it does.`,
        methods: { ping: { execute: () => 1 } },
      };
    }
    const text = buildToolDescription({ connectors: many });
    expect(text).toContain("- service0: Service number 0");
    expect(text).toMatch(/- …and \d+ more namespaces \(service\d+, /);
    expect(countTokens(text)).toBeLessThan(1000);
  });

  it("appends the app's instructions", () => {
    expect(buildToolDescription({ connectors: small, instructions: "Prefer read-only calls." })).toContain(
      "Prefer read-only calls.",
    );
  });
});

describe("context cost (o200k) at 100 synthetic tools", () => {
  it("tool definition + one search (default limit) + one describe of the top hit is at most 5% of passing the tools directly", () => {
    const connectors = connectorsFor(100);
    const direct = Object.entries(connectors).flatMap(([namespace, connector]) =>
      Object.entries(connector.methods).map(([name, method]) => ({
        type: "function",
        function: {
          name: `${namespace}_${name}`,
          description: method.description ?? "",
          parameters: method.inputSchema ?? { type: "object", properties: {} },
        },
      })),
    );
    const tool = {
      type: "function",
      function: {
        name: "codemode",
        description: buildToolDescription({ connectors }),
        parameters: CODEMODE_INPUT_JSON_SCHEMA,
      },
    };
    const catalog = createCatalog({ connectors, snippets: [] });
    const found = catalog.search("create customer");
    const described = catalog.describe(found.results[0]!.path);
    const codemode = [tool, found, described].reduce((sum, part) => sum + countTokens(JSON.stringify(part)), 0);
    expect(codemode).toBeLessThanOrEqual(countTokens(JSON.stringify(direct)) * 0.05);
  });
});

describe("namespaceHint", () => {
  it("without a description, lists method names that show the namespace's range", () => {
    const methods = [
      "list_customer",
      "get_customer",
      "create_customer",
      "list_invoice",
      "get_invoice",
      "create_ticket",
      "update_product",
    ];
    expect(representativeMethods(methods, 3)).toEqual(["list_customer", "get_invoice", "create_ticket"]);
    expect(representativeMethods(["list_issues", "list_issue_comments", "get_issue"], 3)).toEqual([
      "list_issues",
      "list_issue_comments",
      "get_issue",
    ]);
    const connector: Connector = {
      methods: Object.fromEntries(methods.map((method) => [method, { execute: () => 1 }])),
    };
    expect(namespaceHint("crm", connector)).toBe(
      `- crm: list_customer, get_invoice, create_ticket, … (${methods.length} methods)`,
    );
  });

  it("uses the first sentence of the description, clipped", () => {
    const long = { description: `${"word ".repeat(40)}end. Second sentence.`, methods: {} };
    const hint = namespaceHint("x", long);
    expect(hint.length).toBeLessThan(120);
    expect(hint).toContain("…");
    expect(hint).toContain("(0 methods)");
  });
});
