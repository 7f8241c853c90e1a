/**
 * docs/security.md promises only what a test holds: every test file its tables name exists under
 * `test/`, and every test it quotes after `›` is a title (or the start of one) in that file.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const page = readFileSync(resolve(root, "docs/security.md"), "utf8");

/** The "held by" cell of each table row: `file.test.ts` › title; › title; `other.test.ts` … */
function heldBy(): Array<{ row: string; file: string; titles: string[] }> {
  const out: Array<{ row: string; file: string; titles: string[] }> = [];
  for (const row of page.split("\n").filter((line) => line.startsWith("|") && line.includes(".test.ts"))) {
    const cell = row.split("|").at(-2) ?? "";
    // Each file reference and the quoted titles after it, up to the next file reference.
    for (const part of cell.split(/(?=`[^`]+\.test\.ts`)/)) {
      const file = /`([^`]+\.test\.ts)`/.exec(part)?.[1];
      if (file === undefined) continue;
      const titles = [...part.matchAll(/›\s*([^;›]+)/g)].map((match) => (match[1] ?? "").trim());
      out.push({ row, file, titles });
    }
  }
  return out;
}

describe("docs/security.md", () => {
  const references = heldBy();

  it("names at least one test for every party it describes", () => {
    expect(references.length).toBeGreaterThan(30);
    for (const party of [
      "A program",
      "A connector",
      "An MCP client",
      "The person approving",
      "Another signed-in user",
      "A link holder",
      "A page of another site",
      "An upstream MCP server",
      "A chat client",
      "A telemetry backend",
    ])
      expect(page).toContain(`## ${party}`);
  });

  it("every test file it names exists and every test it quotes is in that file", () => {
    const missing: string[] = [];
    for (const { file, titles } of references) {
      const path = resolve(root, "test", file);
      if (!existsSync(path)) {
        missing.push(`${file}: no such test file`);
        continue;
      }
      const text = readFileSync(path, "utf8");
      for (const title of titles) if (!text.includes(title)) missing.push(`${file}: no test "${title}"`);
    }
    expect(missing).toEqual([]);
  });
});
