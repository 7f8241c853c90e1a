import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TypeScriptEmitter } from "../../src/connectors/json-schema-to-typescript.js";
import { compileDiagnostics } from "./fixtures/compile-typescript.js";

/** Property names that stress quoting: identifiers, keywords, dashes, quotes, digits, unicode, comment terminators. */
const propertyName = fc.oneof(
  fc.constantFrom(
    "id",
    "type",
    "class",
    "constructor",
    "__proto__",
    "a-b",
    "2fa",
    "with space",
    'q"uote',
    "*/",
    "ünï",
    "$ref",
    "",
  ),
  fc.string({ maxLength: 6 }),
);

const definitionNames = ["node", "item", "Node", "node-2"];

/** Random JSON Schemas of the shapes tool schemas use, with local $refs into `definitions`. */
const { schema } = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom({ type: "string" }, { type: "integer" }, { type: "boolean" }, { type: "null" }, {}, true, false, {
      type: "object",
    }),
    fc.record({
      enum: fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.boolean(), fc.constant(null)), {
        minLength: 1,
        maxLength: 4,
      }),
    }),
    fc.record({
      const: fc.oneof(
        fc.string({ maxLength: 5 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.constant({ x: 1 }),
      ),
    }),
    fc.record({ type: fc.constant("array"), items: tie("schema") }),
    fc.record({
      type: fc.constant("array"),
      prefixItems: fc.array(tie("schema"), { maxLength: 3 }),
      items: fc.oneof(fc.constant(false), tie("schema")),
    }),
    fc.record(
      {
        type: fc.constant("object"),
        properties: fc.dictionary(propertyName, tie("schema"), { maxKeys: 4 }),
        required: fc.array(propertyName, { maxLength: 3 }),
        additionalProperties: fc.oneof(fc.constant(false), fc.constant(true), tie("schema")),
        description: fc.string({ maxLength: 20 }),
      },
      { requiredKeys: ["type", "properties"] },
    ),
    fc.record({ anyOf: fc.array(tie("schema"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(tie("schema"), { minLength: 1, maxLength: 3 }), nullable: fc.boolean() }),
    fc.record({ allOf: fc.array(tie("schema"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ type: fc.subarray(["string", "number", "null", "array", "object"], { minLength: 1 }) }),
    fc.record({
      $ref: fc.constantFrom(...definitionNames.map((name) => `#/definitions/${name}`), "#", "#/definitions/missing"),
    }),
  ),
}));

const rootSchema = fc.record({
  type: fc.constant("object"),
  properties: fc.dictionary(propertyName, schema, { maxKeys: 5 }),
  definitions: fc.record(Object.fromEntries(definitionNames.map((name) => [name, schema]))),
});

describe("TypeScriptEmitter on random schemas", () => {
  it("always produces declarations the TypeScript compiler accepts", () => {
    fc.assert(
      fc.property(fc.array(rootSchema, { minLength: 1, maxLength: 25 }), (roots) => {
        const emitter = new TypeScriptEmitter();
        const lines = roots.map(
          (root, index) => `type Root${index} = ${emitter.typeOf(root, { namePrefix: `R${index}` })};`,
        );
        const diagnostics = compileDiagnostics({ "random.ts": `${emitter.aliases().join("\n")}\n${lines.join("\n")}` });
        expect(diagnostics).toEqual([]);
      }),
      { numRuns: 12, seed: 20261130 },
    );
  });
});
