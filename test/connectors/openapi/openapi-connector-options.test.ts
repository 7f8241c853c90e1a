import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../../src/errors.js";
import { openApiConnector } from "../../../src/connectors/openapi/openapi-connector.js";
import type { OpenApiConnectorOptions } from "../../../src/connectors/openapi/openapi-connector-options.js";

const spec = {
  openapi: "3.1.0",
  info: { title: "Pets", version: "1" },
  servers: [{ url: "https://{region}.pets.example/v1", variables: { region: { default: "eu" } } }],
  paths: {
    "/pets": {
      get: { operationId: "listPets", responses: { "200": { description: "ok" } } },
      post: { operationId: "createPet", responses: { "201": { description: "ok" } } },
    },
    "/pets/{petId}": {
      parameters: [{ name: "petId", in: "path", required: true, schema: { type: "string" } }],
      get: { operationId: "getPet", responses: { "200": { description: "ok" } } },
      head: { responses: { "200": { description: "ok" } } },
      delete: { operationId: "deletePet", responses: { "204": { description: "gone" } } },
    },
  },
};

async function rejection(options: OpenApiConnectorOptions): Promise<InvalidOptionError> {
  const error = await openApiConnector(options).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(InvalidOptionError.isInstance(error)).toBe(true);
  return error as InvalidOptionError;
}

describe("openApiConnector policy", () => {
  it("refuses the old approval keys, naming needsApproval", async () => {
    const option = await rejection({ spec, requireApproval: () => true } as never);
    expect([option.path, option.message]).toEqual([
      "options.requireApproval",
      'options.requireApproval is not a known option (renamed: use "needsApproval")',
    ]);
    const policy = await rejection({ spec, operations: { deletePet: { requiresApproval: true } as never } });
    expect([policy.path, policy.message]).toEqual([
      "operations.deletePet.requiresApproval",
      'operations.deletePet.requiresApproval is not a known option (renamed: use "needsApproval")',
    ]);
  });

  it("takes needsApproval as a boolean for every operation", async () => {
    const pets = await openApiConnector({
      spec,
      needsApproval: true,
      operations: { listPets: { needsApproval: false } },
    });
    expect(pets.methods["createPet"]!.needsApproval).toBe(true);
    expect(pets.methods["getPet"]!.needsApproval).toBe(true);
    expect(pets.methods["listPets"]!.needsApproval).toBe(false);
  });

  it("records everything and asks for nothing by default", async () => {
    const pets = await openApiConnector({ spec });
    for (const method of Object.values(pets.methods)) {
      expect(method.replay).toBe("record");
      expect(method.needsApproval).toBe(false);
    }
  });

  it("applies the approval rule, and per-operation policy over it", async () => {
    const seen: string[] = [];
    const onlyIfBig = (args: unknown) => (args as { petId: string }).petId.length > 3;
    const pets = await openApiConnector({
      spec,
      needsApproval: (operation) => {
        seen.push(`${operation.method} ${operation.path} ${operation.name}`);
        return operation.method !== "get" && operation.method !== "head";
      },
      operations: { deletePet: { needsApproval: onlyIfBig }, getPet: { needsApproval: true } },
    });
    expect(pets.methods["listPets"]!.needsApproval).toBe(false);
    expect(pets.methods["createPet"]!.needsApproval).toBe(true);
    expect(pets.methods["deletePet"]!.needsApproval).toBe(onlyIfBig);
    expect(pets.methods["getPet"]!.needsApproval).toBe(true);
    expect(seen).toContain("post /pets createPet");
    expect(seen).toContain("head /pets/{petId} head_pets_by_petId");
  });

  it("makes safe reads without approval reexecute when asked, and only those", async () => {
    const pets = await openApiConnector({
      spec,
      replay: "reexecute",
      needsApproval: (operation) => operation.operationId === "getPet",
    });
    expect(pets.methods["listPets"]!.replay).toBe("reexecute");
    expect(pets.methods["head_pets_by_petId"]!.replay).toBe("reexecute");
    expect(pets.methods["getPet"]!.replay).toBe("record");
    expect(pets.methods["createPet"]!.replay).toBe("record");
    expect(pets.methods["deletePet"]!.replay).toBe("record");
  });

  it("lets one operation opt into reexecute by operationId or by method name", async () => {
    const pets = await openApiConnector({
      spec,
      operations: { createPet: { replay: "reexecute" }, head_pets_by_petId: { replay: "reexecute" } },
    });
    expect(pets.methods["createPet"]!.replay).toBe("reexecute");
    expect(pets.methods["head_pets_by_petId"]!.replay).toBe("reexecute");
    expect(pets.methods["listPets"]!.replay).toBe("record");
  });

  it("refuses reexecute together with approval", async () => {
    const error = await rejection({ spec, operations: { deletePet: { needsApproval: true, replay: "reexecute" } } });
    expect(error.path).toBe("operations.deletePet.replay");
    expect(error.message).toContain("an approved call must run exactly once");
  });

  it("refuses policy for operations the document does not have", async () => {
    const error = await rejection({ spec, operations: { listPet: { needsApproval: true } } });
    expect(error.path).toBe("operations.listPet");
  });

  it("keeps only the included operations", async () => {
    const pets = await openApiConnector({
      spec,
      include: (operation) => operation.tags.length === 0 && operation.method === "get",
    });
    expect(Object.keys(pets.methods).sort()).toEqual(["getPet", "listPets"]);
    expect((await rejection({ spec, include: () => false })).path).toBe("include");
  });

  it("refuses unknown option and policy keys with the closest known key", async () => {
    const top = await rejection({ spec, needsAproval: () => true } as never);
    expect([top.path, top.message.includes('did you mean "needsApproval"?')]).toEqual(["options.needsAproval", true]);
    const policy = await rejection({ spec, operations: { deletePet: { needsAproval: true } as never } });
    expect([policy.path, policy.message.includes('did you mean "needsApproval"?')]).toEqual([
      "operations.deletePet.needsAproval",
      true,
    ]);
    const operation = await rejection({ spec, operations: { deletePets: { needsApproval: true } } });
    expect([operation.path, operation.message.includes('did you mean "deletePet"?')]).toEqual([
      "operations.deletePets",
      true,
    ]);
  });

  it("names the option when an option is malformed", async () => {
    expect((await rejection({ spec, baseUrl: "ftp://pets.example" })).path).toBe("baseUrl");
    expect((await rejection({ spec, baseUrl: "/relative" })).path).toBe("baseUrl");
    expect((await rejection({ spec, headers: { authorization: 42 } as never })).path).toBe("headers.authorization");
    expect((await rejection({ spec, fetch: "fetch" as never })).path).toBe("fetch");
    expect((await rejection({ spec, replay: "sometimes" as never })).path).toBe("replay");
    expect((await rejection({ spec, operations: { getPet: { replay: "never" as never } } })).path).toBe(
      "operations.getPet.replay",
    );
    expect((await rejection({ spec, needsApproval: "yes" as never })).path).toBe("needsApproval");
    expect((await rejection({} as never)).path).toBe("spec");
  });

  it("uses the document's server (variables filled), and needs baseUrl when there is none", async () => {
    const requested: string[] = [];
    const pets = await openApiConnector({
      spec,
      fetch: async (url) => {
        requested.push(url.href);
        return new Response(null, { status: 204 });
      },
    });
    await pets.methods["getPet"]!.execute({ petId: "rex" }, { abortSignal: new AbortController().signal } as never);
    expect(requested).toEqual(["https://eu.pets.example/v1/pets/rex"]);

    const { servers: _servers, ...withoutServers } = spec;
    const error = await rejection({ spec: withoutServers });
    expect(error.path).toBe("baseUrl");
    expect(error.message).toContain("no server for GET /pets");
    const relative = await rejection({ spec: { ...spec, servers: [{ url: "/v1" }] } });
    expect(relative.message).toContain('server URL "/v1" for GET /pets is not absolute');
  });
});
