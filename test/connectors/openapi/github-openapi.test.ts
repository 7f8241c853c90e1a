/**
 * GitHub's REST description (~13 MB of JSON, OpenAPI 3.0, vendored: `../fixtures/github-openapi/`) as a connector:
 * every operation becomes a method, arguments validate, the catalog finds them, and the
 * generated declarations compile with the TypeScript compiler.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createCatalog } from "../../../src/connectors/search/catalog.js";
import { connectorDeclaration } from "../../../src/connectors/declarations.js";
import { HTTP_METHODS } from "../../../src/connectors/openapi/collect-operations.js";
import { openApiConnector } from "../../../src/connectors/openapi/openapi-connector.js";
import type { Connector } from "../../../src/connectors/types.js";
import { compileDiagnostics } from "../fixtures/compile-typescript.js";
import { githubOpenApiText } from "../fixtures/github-openapi.js";

function typeCheck(source: string): string[] {
  return compileDiagnostics({ "github.ts": source });
}

describe("GitHub's OpenAPI description", () => {
  let text: string;
  let github: Connector;
  let operationCount = 0;

  beforeAll(async () => {
    text = githubOpenApiText();
    const started = performance.now();
    github = await openApiConnector({ spec: text, needsApproval: (operation) => operation.method !== "get" });
    const elapsed = performance.now() - started;
    const paths = (JSON.parse(text) as { paths: Record<string, Record<string, unknown>> }).paths;
    for (const item of Object.values(paths))
      for (const method of HTTP_METHODS) if (item[method] !== undefined) operationCount++;
    // Reported, not asserted (timings belong in bench/).
    console.log(
      `github openapi: ${(text.length / 1e6).toFixed(1)} MB, ${Object.keys(github.methods).length} methods, built in ${elapsed.toFixed(0)} ms`,
    );
  });

  it("is the vendored @octokit/openapi 23.0.2 (fixtures/github-openapi/README.md)", () => {
    const { openapi, info } = JSON.parse(text) as { openapi: string; info: { version: string } };
    expect([openapi, info.version]).toEqual(["3.0.3", "23.0.2"]);
  });

  it("makes one method per operation, named from the operationIds", () => {
    expect(operationCount).toBeGreaterThan(1000);
    expect(Object.keys(github.methods)).toHaveLength(operationCount);
    const create = github.methods["issues_create"]!;
    expect(create.description).toMatch(/^Create an issue\n\n[\s\S]*\n\nPOST \/repos\/\{owner\}\/\{repo\}\/issues$/);
    expect(create.needsApproval).toBe(true);
    expect(github.methods["issues_list_for_repo"]!.needsApproval).toBe(false);
    expect(create.inputSchema).toMatchObject({
      type: "object",
      required: ["owner", "repo", "body"],
      properties: {
        owner: { type: "string" },
        repo: { type: "string" },
        body: { type: "object", required: ["title"] },
      },
    });
  });

  it("validates arguments against the dereferenced schemas", async () => {
    const create = github.methods["issues_create"]!;
    expect(
      await create.validate!({ owner: "octo", repo: "hello", body: { title: "Bug", labels: ["bug"] } }),
    ).toMatchObject({ success: true });
    expect(await create.validate!({ owner: "octo", repo: "hello", body: { labels: ["bug"] } })).toMatchObject({
      success: false,
    });
    const list = github.methods["issues_list_for_repo"]!;
    expect(await list.validate!({ owner: "octo", repo: "hello", state: "open", per_page: 50 })).toMatchObject({
      success: true,
    });
    expect(await list.validate!({ owner: "octo", repo: "hello", state: "opened" })).toMatchObject({ success: false });
  });

  it("is searchable through the catalog", () => {
    const catalog = createCatalog({ connectors: { github }, snippets: [] });
    const top = (query: string) => catalog.search(query, { limit: 5 }).results.map((result) => result.method);
    expect(top("create an issue")).toContain("issues_create");
    expect(top("add labels to an issue")).toContain("issues_add_labels");
    expect(top("merge a pull request")).toContain("pulls_merge");
    expect(top("list workflow runs")).toContain("actions_list_workflow_runs");
  });

  it("yields declarations that compile, and that type-check a program using them", () => {
    const declarations = connectorDeclaration("github", github);
    const usage = [
      "async function program() {",
      '  const issue = await github.issues_create({ owner: "octo", repo: "hello", body: { title: "Bug", labels: ["bug"] } });',
      "  const number: number = issue.number;",
      '  const open = await github.issues_list_for_repo({ owner: "octo", repo: "hello", state: "open" });',
      "  return [number, open.length];",
      "}",
    ].join("\n");
    expect(typeCheck(`${declarations}\n${usage}\n`)).toEqual([]);
    // The same check catches a wrong call: the types are not `any`.
    const wrong = 'async function wrong() { await github.issues_create({ owner: "octo", body: { title: 1 } }); }';
    expect(typeCheck(`${declarations}\n${wrong}\n`).length).toBeGreaterThan(0);
  });
});
