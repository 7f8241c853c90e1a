import { readFileSync } from "node:fs";
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../../src/errors.js";
import { openApiConnector } from "../../../src/connectors/openapi/openapi-connector.js";
import { parseOpenApiDocument } from "../../../src/connectors/openapi/parse-openapi-document.js";

const YAML = readFileSync(new URL("./fixtures/issue-tracker.yaml", import.meta.url), "utf8");

async function invalid(spec: unknown): Promise<InvalidOptionError> {
  const error = await openApiConnector({ spec: spec as object, baseUrl: "https://api.example" }).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(InvalidOptionError.isInstance(error)).toBe(true);
  return error as InvalidOptionError;
}

function minimal(paths: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { openapi: "3.0.3", info: { title: "t", version: "1" }, paths, ...extra };
}

describe("parseOpenApiDocument", () => {
  it("reads YAML text, JSON text and objects alike, without touching the caller's object", async () => {
    const object = load(YAML) as Record<string, unknown>;
    const before = JSON.stringify(object);
    const fromYaml = await openApiConnector({ spec: YAML });
    const fromJson = await openApiConnector({ spec: JSON.stringify(object) });
    const fromObject = await openApiConnector({ spec: object });
    expect(JSON.stringify(object)).toBe(before);
    for (const other of [fromJson, fromObject]) {
      expect(Object.keys(other.methods)).toEqual(Object.keys(fromYaml.methods));
      for (const name of Object.keys(fromYaml.methods)) {
        expect(other.methods[name]!.inputSchema).toEqual(fromYaml.methods[name]!.inputSchema);
        expect(other.methods[name]!.outputSchema).toEqual(fromYaml.methods[name]!.outputSchema);
      }
    }
  });

  it("resolves parameters and responses through chains of component $refs", async () => {
    const { document } = await parseOpenApiDocument(YAML);
    const paths = document["paths"] as Record<string, Record<string, Record<string, unknown>>>;
    const item = paths["/projects/{project}/issues"]!;
    expect(item["parameters"]).toEqual([expect.objectContaining({ name: "project", in: "path" })]);
    expect(item["get"]!["responses"]).toMatchObject({ "404": { description: "No such project or issue." } });
  });

  it("follows 3.1 path item $refs and ignores webhooks", async () => {
    const connector = await openApiConnector({
      spec: {
        openapi: "3.1.0",
        info: { title: "t", version: "1" },
        servers: [{ url: "https://api.example" }],
        paths: { "/pets": { $ref: "#/components/pathItems/Pets" } },
        webhooks: { newPet: { post: { operationId: "onNewPet", responses: { "200": { description: "ok" } } } } },
        components: {
          pathItems: {
            Pets: {
              get: {
                operationId: "listPets",
                parameters: [{ $ref: "#/components/parameters/Limit" }],
                responses: { "200": { $ref: "#/components/responses/Pets" } },
              },
            },
          },
          parameters: { Limit: { name: "limit", in: "query", schema: { type: ["integer", "null"] } } },
          responses: {
            Pets: {
              description: "pets",
              content: {
                "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/Pet" } } },
              },
            },
          },
          schemas: { Pet: { type: "object", properties: { name: { type: "string" } } } },
        },
      },
    });
    expect(Object.keys(connector.methods)).toEqual(["listPets"]);
    expect(connector.methods["listPets"]!.inputSchema).toMatchObject({
      properties: { limit: { type: ["integer", "null"] } },
    });
    expect(connector.methods["listPets"]!.outputSchema).toMatchObject({
      type: "array",
      items: { $ref: "#/$defs/Pet" },
      $defs: { Pet: { type: "object" } },
    });
  });

  it("names the path of what is wrong", async () => {
    expect((await invalid({ swagger: "2.0", paths: {} })).message).toContain(
      "Swagger 2.0 document; convert it to OpenAPI 3",
    );
    expect((await invalid({ openapi: "4.0.0", paths: {} })).path).toBe("spec.openapi");
    expect((await invalid(42)).path).toBe("spec");
    expect((await invalid("./openapi.yaml")).message).toContain("To use a file, read it first");
    expect((await invalid('{"openapi": "3.0.0",')).message).toContain("looks like JSON but does not parse");
    expect((await invalid("openapi: [unclosed")).message).toContain("neither JSON nor YAML");
    expect((await invalid(minimal({}))).path).toBe("spec.paths");
    expect((await invalid(minimal({ "/x": { get: { parameters: [{ in: "query" }], responses: {} } } }))).path).toBe(
      'spec.paths["/x"].get.parameters[0].name',
    );
    expect(
      (await invalid(minimal({ "/x": { get: { parameters: [{ name: "a", in: "body" }], responses: {} } } }))).path,
    ).toBe('spec.paths["/x"].get.parameters[0].in');
    expect((await invalid(minimal({ x: { get: { responses: {} } } }))).path).toBe('spec.paths["x"]');
  });

  it("rejects $refs that do not resolve, at the operation that uses them", async () => {
    const missingParameter = await invalid(
      minimal({ "/x": { get: { parameters: [{ $ref: "#/components/parameters/Nope" }], responses: {} } } }),
    );
    expect(missingParameter.path).toBe("spec");
    expect(missingParameter.message).toContain("#/components/parameters/Nope");
    const missingSchema = await invalid(
      minimal({
        "/x": {
          get: {
            responses: {
              "200": {
                description: "ok",
                content: { "application/json": { schema: { $ref: "#/components/schemas/Nope" } } },
              },
            },
          },
        },
      }),
    );
    expect(missingSchema.path).toBe('spec.paths["/x"].get');
    expect(missingSchema.message).toContain("Nope");
  });

  it("never reads files or the network for external $refs", async () => {
    const error = await invalid(
      minimal({
        "/x": {
          get: {
            responses: {
              "200": { description: "ok", content: { "application/json": { schema: { $ref: "/etc/passwd#/x" } } } },
            },
          },
        },
      }),
    );
    expect(error.path).toBe('spec.paths["/x"].get');
    expect(error.message).toContain("points outside the document");
  });
});
