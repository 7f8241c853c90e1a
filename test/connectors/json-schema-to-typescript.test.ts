import type { JSONSchema7 } from "@ai-sdk/provider";
import { asSchema } from "@ai-sdk/provider-utils";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { connectorDeclaration, methodDeclaration } from "../../src/connectors/declarations.js";
import { TypeScriptEmitter } from "../../src/connectors/json-schema-to-typescript.js";
import type { Connector } from "../../src/connectors/types.js";
import { compileDiagnostics } from "./fixtures/compile-typescript.js";
import { githubOpenApiText } from "./fixtures/github-openapi.js";
import { EDGE_CASES, GITHUB_LIKE, STRIPE_LIKE, type CorpusTool } from "./fixtures/schema-corpus.js";

function typeOf(schema: unknown): string {
  return new TypeScriptEmitter({ docs: false }).typeOf(schema);
}

function toConnector(tools: CorpusTool[]): Connector {
  const methods: Connector["methods"] = Object.create(null) as Connector["methods"];
  for (const tool of tools) {
    methods[tool.name] = {
      inputSchema: tool.input,
      ...(tool.output === undefined ? {} : { outputSchema: tool.output }),
      ...(tool.description === undefined ? {} : { description: tool.description }),
      execute: () => undefined,
    };
  }
  return { methods };
}

/** Every declaration of a connector: the whole namespace and each method alone. */
function declarationFiles(name: string, connector: Connector): Record<string, string> {
  const files: Record<string, string> = { [`${name}.ts`]: connectorDeclaration(name, connector) };
  Object.keys(connector.methods).forEach((method, index) => {
    files[`${name}-${index}.ts`] = methodDeclaration(name, method, connector.methods[method]!);
  });
  return files;
}

describe("TypeScriptEmitter", () => {
  it("renders the basic shapes", () => {
    expect(typeOf({ type: "string" })).toBe("string");
    expect(typeOf({ type: "integer" })).toBe("number");
    expect(typeOf({ enum: ["a", "b", 1, null] })).toBe('"a" | "b" | 1 | null');
    expect(typeOf({ const: "x" })).toBe('"x"');
    expect(typeOf({ type: ["string", "null"] })).toBe("string | null");
    expect(typeOf({ type: "string", nullable: true })).toBe("string | null");
    expect(typeOf({ anyOf: [{ type: "string" }, { type: "number" }] })).toBe("string | number");
    expect(typeOf({ type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } })).toBe(
      "(string | number)[]",
    );
    expect(typeOf({ type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false })).toBe(
      "[string, number]",
    );
    expect(typeOf({ type: "array", items: [{ type: "string" }], additionalItems: { type: "number" } })).toBe(
      "[string, ...number[]]",
    );
    expect(
      typeOf({ type: "array", prefixItems: [{ type: "string" }, { type: "number" }], minItems: 1, items: false }),
    ).toBe("[string, number?]");
    expect(typeOf({ type: "object", additionalProperties: { type: "number" } })).toBe("Record<string, number>");
    expect(typeOf({ type: "object" })).toBe("Record<string, unknown>");
    expect(typeOf({ type: "object", additionalProperties: false })).toBe("{}");
    expect(typeOf({})).toBe("unknown");
    expect(typeOf(false)).toBe("never");
    expect(
      typeOf({ type: "object", properties: { "a-b": { type: "string" }, c: { type: "number" } }, required: ["c"] }),
    ).toBe('{ "a-b"?: string; c: number }');
    expect(
      typeOf({
        allOf: [
          { type: "object", properties: { a: { type: "string" } } },
          { anyOf: [{ type: "string" }, { type: "number" }] },
        ],
      }),
    ).toBe("{ a?: string } & (string | number)");
    expect(
      typeOf({ type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "number" } }),
    ).toBe("{ a?: string } & Record<string, number>");
  });

  it("writes an object on one line when it has no JSDoc and fits in ONE_LINE_OBJECT_MAX_CHARS, else one member per line", () => {
    const small = {
      type: "object",
      properties: { user_id: { type: "string" }, team: { type: "string" } },
      required: ["user_id"],
    };
    expect(typeOf(small)).toBe("{ user_id: string; team?: string }");
    expect(typeOf({ type: "object", properties: { owner: small } })).toBe(
      "{ owner?: { user_id: string; team?: string } }",
    );
    const long = {
      type: "object",
      properties: Object.fromEntries(
        ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"].map((name) => [name, { type: "string" }]),
      ),
    };
    expect(typeOf(long)).toBe(
      `{\n${["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"].map((name) => `  ${name}?: string;`).join("\n")}\n}`,
    );
    const documented = { type: "object", properties: { id: { type: "string", description: "The id." } } };
    expect(new TypeScriptEmitter().typeOf(documented)).toBe("{\n  /** The id. */\n  id?: string;\n}");
  });

  it("names $ref targets as aliases, including recursion", () => {
    const emitter = new TypeScriptEmitter({ docs: false });
    const schema = {
      type: "object",
      properties: { root: { $ref: "#/definitions/node" } },
      definitions: {
        node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/definitions/node" } } } },
      },
    };
    expect(emitter.typeOf(schema, { namePrefix: "Tree" })).toBe("{ root?: TreeNode }");
    expect(emitter.aliases()).toEqual(["type TreeNode = { children?: TreeNode[] };"]);
  });

  it("writes descriptions, defaults and formats as JSDoc, escaping comment terminators", () => {
    const type = new TypeScriptEmitter().typeOf({
      type: "object",
      properties: { since: { type: "string", format: "date-time", description: "Start */ here", default: "now" } },
    });
    expect(type).toBe(
      '{\n  /**\n   * Start *\\/ here\n   * @default "now"\n   * @format date-time\n   */\n  since?: string;\n}',
    );
  });
});

describe("generated declarations compile", () => {
  it("types are meaningful: required, optional, enums and records are enforced", () => {
    const declaration = methodDeclaration(
      "stripe",
      "create_payment_intent",
      toConnector(STRIPE_LIKE).methods["create_payment_intent"]!,
    );
    const checks = [
      declaration,
      "type CreatePaymentIntentInput = Parameters<typeof stripe.create_payment_intent>[0];",
      "type CreatePaymentIntentOutput = Awaited<ReturnType<typeof stripe.create_payment_intent>>;",
      `const ok: CreatePaymentIntentInput = { amount: 100, currency: "usd", metadata: { order: "1" }, capture_method: "manual" };`,
      `const blank: CreatePaymentIntentInput = { amount: 1, currency: "eur", metadata: "" };`,
      `// @ts-expect-error currency is required`,
      `const missing: CreatePaymentIntentInput = { amount: 100 };`,
      `// @ts-expect-error not one of the enum values`,
      `const wrongEnum: CreatePaymentIntentInput = { amount: 1, currency: "usd", capture_method: "later" };`,
      `// @ts-expect-error metadata values are strings`,
      `const wrongRecord: CreatePaymentIntentInput = { amount: 1, currency: "usd", metadata: { n: 1 } };`,
      `declare const out: CreatePaymentIntentOutput;`,
      `const status: "succeeded" | "canceled" | "processing" | "requires_action" | "requires_capture" | "requires_confirmation" | "requires_payment_method" = out.status;`,
      `const result: Promise<CreatePaymentIntentOutput> = stripe.create_payment_intent(ok);`,
    ].join("\n");
    expect(compileDiagnostics({ "checks.ts": checks })).toEqual([]);
  });

  it("for the hand-written corpus (Stripe-like, GitHub-like, edge cases)", () => {
    const files = {
      ...declarationFiles("stripe", toConnector(STRIPE_LIKE)),
      ...declarationFiles("github", toConnector(GITHUB_LIKE)),
      ...declarationFiles("edge", toConnector(EDGE_CASES)),
    };
    expect(compileDiagnostics(files)).toEqual([]);
  });

  it("for zod 4 schemas in the shapes the AI SDK docs use", () => {
    type Category = { name: string; subcategories: Category[] };
    const category: z.ZodType<Category> = z.lazy(() =>
      z.object({ name: z.string(), subcategories: z.array(category) }),
    );
    const schemas: Record<string, z.ZodType> = {
      weather: z.object({ location: z.string().describe("The location to get the weather for") }),
      recipe: z.object({
        recipe: z.object({
          name: z.string(),
          ingredients: z.array(z.object({ name: z.string(), amount: z.string() })),
          steps: z.array(z.string()),
        }),
      }),
      events: z.object({
        kind: z.discriminatedUnion("type", [
          z.object({ type: z.literal("click"), x: z.number(), y: z.number() }),
          z.object({ type: z.literal("key"), key: z.string() }),
        ]),
        tags: z.record(z.string(), z.array(z.string())).optional(),
        when: z.iso.datetime().nullable(),
        range: z.tuple([z.number(), z.number()]),
        mode: z.enum(["fast", "slow"]).default("fast"),
      }),
      tree: z.object({ root: category }),
    };
    const connector: Connector = { methods: Object.create(null) as Connector["methods"] };
    for (const [name, schema] of Object.entries(schemas)) {
      const json = asSchema(schema).jsonSchema as JSONSchema7;
      connector.methods[name] = { inputSchema: json, outputSchema: json, execute: () => undefined };
    }
    const files = declarationFiles("zod", connector);
    expect(compileDiagnostics(files)).toEqual([]);
    expect(files["zod.ts"]).toContain('kind: { type: "click"; x: number; y: number } | { type: "key"; key: string };');
  });

  it("for every schema of the GitHub REST API OpenAPI document (components and operations)", () => {
    const document = JSON.parse(githubOpenApiText()) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
      components: { schemas: Record<string, unknown> };
    };
    const emitter = new TypeScriptEmitter();
    const lines: string[] = [];
    let count = 0;
    for (const name of Object.keys(document.components.schemas)) {
      lines.push(
        `type Component${count++} = ${emitter.typeOf({ $ref: `#/components/schemas/${name}` }, { root: document })};`,
      );
    }
    for (const operations of Object.values(document.paths)) {
      for (const operation of Object.values(operations)) {
        const body = (operation["requestBody"] as { content?: Record<string, { schema?: unknown }> } | undefined)
          ?.content?.["application/json"]?.schema;
        const responses = operation["responses"] as
          | Record<string, { content?: Record<string, { schema?: unknown }> }>
          | undefined;
        const ok =
          responses?.["200"]?.content?.["application/json"]?.schema ??
          responses?.["201"]?.content?.["application/json"]?.schema;
        for (const schema of [body, ok]) {
          if (schema !== undefined)
            lines.push(`type Operation${count++} = ${emitter.typeOf(schema, { root: document })};`);
        }
      }
    }
    expect(count).toBeGreaterThan(2000);
    const source = `${emitter.aliases().join("\n")}\n${lines.join("\n")}`;
    expect(compileDiagnostics({ "github-openapi.ts": source })).toEqual([]);
  });
});
