/** OpenAPI methods through the catalog: search finds them, describe renders their (recursive) types. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createCatalog } from "../../../src/connectors/search/catalog.js";
import { openApiConnector } from "../../../src/connectors/openapi/openapi-connector.js";
import { compileDiagnostics } from "../fixtures/compile-typescript.js";

const SPEC = readFileSync(new URL("./fixtures/issue-tracker.yaml", import.meta.url), "utf8");

function diagnostics(source: string): string[] {
  return compileDiagnostics({ "tracker.ts": source });
}

describe("OpenAPI methods in the catalog", async () => {
  const tracker = await openApiConnector({
    spec: SPEC,
    baseUrl: "http://127.0.0.1:9/api",
    needsApproval: (op) => op.method !== "get",
  });
  const catalog = createCatalog({ connectors: { tracker }, snippets: [] });

  it("ranks the operation a task names first", () => {
    expect(catalog.search("create an issue").results[0]?.path).toBe("tracker.createIssue");
    expect(catalog.search("comment on an issue").results[0]?.path).toBe("tracker.addComment");
    expect(catalog.search("delete issue").results[0]?.path).toBe("tracker.delete_projects_by_project_issues_by_number");
  });

  it("describes a method with its recursive types, approval note and HTTP line, as TypeScript that compiles", () => {
    const described = catalog.describe("tracker.addComment");
    if ("error" in described) throw new Error(described.error);
    expect(described.types).toContain("replies?: AddCommentComment[];");
    expect(described.types).toContain("Requires human approval");
    expect(described.types).toContain("POST /projects/{project}/issues/{number}/comments");
    expect(described.types).toContain('"X-Request-Id"?: string;');
    const usage =
      'async function use() { const c = await tracker.addComment({ project: "core", number: 1, body: { body: "hi", replies: [{ body: "yo" }] } }); return c.replies?.[0]?.body; }';
    expect(diagnostics(`${described.types}\n${usage}\n`)).toEqual([]);
  });

  it("describes the whole connector as compiling TypeScript", () => {
    const described = catalog.describe("tracker");
    if ("error" in described) throw new Error(described.error);
    expect(described.types).toContain("Issue Tracker (version 1.2.0)");
    expect(diagnostics(described.types)).toEqual([]);
  });
});
