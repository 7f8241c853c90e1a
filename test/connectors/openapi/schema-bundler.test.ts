import { Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { createSchemaBundler, JSON_SCHEMA_DIALECT } from "../../../src/connectors/openapi/schema-bundler.js";

function bundlerFor(version: "3.0" | "3.1", components: Record<string, unknown>) {
  return createSchemaBundler({
    version,
    resolvePointer: (pointer) => {
      const name = pointer.replace("#/components/schemas/", "");
      if (!(name in components)) throw new Error(`missing ${pointer}`);
      return components[name];
    },
  });
}

function bundle(version: "3.0" | "3.1", components: Record<string, unknown>, schema: unknown) {
  const bundler = bundlerFor(version, components);
  const references = new Set<string>();
  return bundler.withDefinitions(bundler.convert(schema, references), references);
}

function valid(schema: unknown, value: unknown): boolean {
  return new Validator(schema as ConstructorParameters<typeof Validator>[0], "2020-12").validate(value).valid;
}

describe("createSchemaBundler", () => {
  it("turns component $refs into $defs holding only what is reached, cycles included", () => {
    const components = {
      "tree-node": {
        type: "object",
        properties: {
          value: { type: "integer" },
          children: { type: "array", items: { $ref: "#/components/schemas/tree-node" } },
          owner: { $ref: "#/components/schemas/user" },
        },
      },
      user: { type: "object", properties: { login: { type: "string" }, team: { $ref: "#/components/schemas/team" } } },
      team: {
        type: "object",
        properties: { members: { type: "array", items: { $ref: "#/components/schemas/user" } } },
      },
      unused: { type: "string" },
    };
    const schema = bundle("3.0", components, { $ref: "#/components/schemas/tree-node" });
    expect(schema).toEqual({
      $schema: JSON_SCHEMA_DIALECT,
      $ref: "#/$defs/TreeNode",
      $defs: {
        Team: { type: "object", properties: { members: { type: "array", items: { $ref: "#/$defs/User" } } } },
        TreeNode: {
          type: "object",
          properties: {
            value: { type: "integer" },
            children: { type: "array", items: { $ref: "#/$defs/TreeNode" } },
            owner: { $ref: "#/$defs/User" },
          },
        },
        User: { type: "object", properties: { login: { type: "string" }, team: { $ref: "#/$defs/Team" } } },
      },
    });
    expect(JSON.stringify(schema)).toBeTruthy(); // finite: no object cycles
    expect(valid(schema, { value: 1, children: [{ value: 2, children: [{ value: 3 }] }] })).toBe(true);
    expect(valid(schema, { value: 1, children: [{ value: 2, children: [{ value: "three" }] }] })).toBe(false);
  });

  it("translates OpenAPI 3.0 nullable and boolean exclusive bounds", () => {
    const components = { user: { type: "object", properties: { login: { type: "string" } } } };
    const schema = bundle("3.0", components, {
      type: "object",
      properties: {
        name: { type: "string", nullable: true },
        state: { type: "string", enum: ["open", "closed"], nullable: true },
        owner: { nullable: true, description: "Who owns it", allOf: [{ $ref: "#/components/schemas/user" }] },
        score: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: false },
      },
    }) as Record<string, Record<string, unknown>>;
    expect(schema["properties"]).toEqual({
      name: { type: ["string", "null"] },
      state: { type: ["string", "null"], enum: ["open", "closed", null] },
      owner: { description: "Who owns it", anyOf: [{ allOf: [{ $ref: "#/$defs/User" }] }, { type: "null" }] },
      score: { type: "number", exclusiveMinimum: 0, maximum: 10 },
    });
    expect(valid(schema, { name: null, state: null, owner: null, score: 10 })).toBe(true);
    expect(valid(schema, { score: 0 })).toBe(false);
    expect(valid(schema, { state: "merged" })).toBe(false);
  });

  it("keeps 3.1 siblings of $ref and drops them in 3.0; drops vendor extensions and OpenAPI-only annotations", () => {
    const components = { id: { type: "string", "x-go-type": "ID", example: "abc" } };
    const source = { $ref: "#/components/schemas/id", description: "The id" };
    expect(bundle("3.1", components, source)).toEqual({
      $schema: JSON_SCHEMA_DIALECT,
      description: "The id",
      $ref: "#/$defs/Id",
      $defs: { Id: { type: "string" } },
    });
    expect(bundle("3.0", components, source)).toEqual({
      $schema: JSON_SCHEMA_DIALECT,
      $ref: "#/$defs/Id",
      $defs: { Id: { type: "string" } },
    });
    // 3.1 keeps `null` types as they are.
    expect(bundle("3.1", {}, { type: ["string", "null"], examples: ["a"] })).toEqual({
      $schema: JSON_SCHEMA_DIALECT,
      type: ["string", "null"],
      examples: ["a"],
    });
  });

  it("gives colliding names distinct $defs keys", () => {
    const components = { "pet-owner": { type: "string" }, pet_owner: { type: "integer" } };
    const schema = bundle("3.0", components, {
      type: "object",
      properties: { a: { $ref: "#/components/schemas/pet-owner" }, b: { $ref: "#/components/schemas/pet_owner" } },
    }) as Record<string, unknown>;
    expect(Object.keys(schema["$defs"] as object).sort()).toEqual(["PetOwner", "PetOwner2"]);
    expect(valid(schema, { a: "x", b: 1 })).toBe(true);
    expect(valid(schema, { a: 1 })).toBe(false);
  });

  it("refuses a schema that contains itself as an object instead of looping", () => {
    const node: Record<string, unknown> = { type: "object", properties: {} };
    (node["properties"] as Record<string, unknown>)["child"] = node;
    expect(() => bundle("3.1", {}, node)).toThrow("a schema contains itself as an object");
    // A shared (non-cyclic) subschema is fine.
    const shared = { type: "string" };
    expect(bundle("3.1", {}, { type: "object", properties: { a: shared, b: shared } })).toMatchObject({
      properties: { a: { type: "string" }, b: { type: "string" } },
    });
  });
});
