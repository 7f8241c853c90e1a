/**
 * The public surface, counted with the checker on the built declarations, matches the committed
 * `docs/api-surface.md` and stays within its limits; no comment that ships cites an outside document.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as ai from "ai";
import { describe, expect, it } from "vitest";
import {
  API_SURFACE_FILE,
  type ApiEntry,
  apiLimitProblems,
  readApiSurface,
  renderApiSurface,
} from "../../scripts/api-report.js";

const root = resolve(import.meta.dirname, "../..");

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|js)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("api:report", () => {
  const entries = readApiSurface(root);

  it("docs/api-surface.md is the surface of the built package (run `npm run api:report` after changing an entry)", () => {
    expect(readFileSync(API_SURFACE_FILE, "utf8")).toBe(renderApiSurface(entries));
  });

  it("the surface stays within its limits", () => {
    expect(entries.map((entry) => entry.specifier)).toContain("ai-codemode/sandbox");
    expect(apiLimitProblems(entries)).toEqual([]);
  });

  it("no public class shares a name with an export of `ai` (an app imports both)", () => {
    const classes = entries.flatMap((entry) => entry.names.filter((name) => name.kind === "class"));
    expect(classes.length).toBeGreaterThan(0);
    expect(classes.filter((name) => Object.hasOwn(ai, name.name)).map((name) => name.name)).toEqual([]);
  });

  it("an error class is in the entry of its feature: the OpenAPI errors in ai-codemode/openapi only", () => {
    const classesOf = (specifier: string) =>
      entries
        .find((entry) => entry.specifier === specifier)
        ?.names.filter((name) => name.kind === "class")
        .map((name) => name.name) ?? [];
    expect(classesOf("ai-codemode").filter((name) => name.startsWith("OpenApi"))).toEqual([]);
    expect(classesOf("ai-codemode/openapi")).toEqual(
      expect.arrayContaining(["OpenApiRequestError", "OpenApiResponseError"]),
    );
  });

  it("names each way a surface can exceed its limits", () => {
    const names = (count: number, prefix: string) =>
      Array.from({ length: count }, (_, index) => ({ name: `${prefix}${index}`, kind: "type" as const }));
    const grown: ApiEntry[] = [
      {
        specifier: "ai-codemode",
        names: [
          ...names(46, "Root"),
          { name: "QuickJSExecutor", kind: "class" },
          { name: "StoreError", kind: "class" },
          { name: "Shared", kind: "type" },
          ...["A", "B", "C", "D"].map((name) => ({ name: `MAX_${name}`, kind: "constant" as const })),
        ],
      },
      {
        specifier: "ai-codemode/ui",
        names: [
          ...names(90, "Ui"),
          { name: "QuickJSExecutor", kind: "class" },
          { name: "StoreError", kind: "class" },
          { name: "Shared", kind: "type" },
        ],
      },
    ];
    expect(apiLimitProblems(grown)).toEqual([
      "ai-codemode exports 53 names (at most 45)",
      "the entries export 146 names (at most 131)",
      "4 public constants (at most 3): MAX_A, MAX_B, MAX_C, MAX_D",
      "Shared is exported by both ai-codemode and ai-codemode/ui",
    ]);
  });

  it('no comment in src/ or dist/ cites "SPEC", a document users do not have', () => {
    const citing = [...filesUnder(join(root, "src")), ...filesUnder(join(root, "dist"))].filter((file) =>
      /\bSPEC\b/.test(readFileSync(file, "utf8")),
    );
    expect(citing).toEqual([]);
  });
});
