/**
 * The README's TypeScript samples compile against the built package with `--strict`, and the
 * checker reports a broken sample at its Markdown line (so the README cannot drift unseen).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSamples, extractTypeScriptSamples } from "../../scripts/check-readme-samples.js";

const root = resolve(import.meta.dirname, "../..");
const COMPILE_TIMEOUT_MS = 180_000;

const BROKEN = [
  "# Title",
  "",
  "```sh",
  "npm install ai-codemode",
  "```",
  "",
  "```ts",
  'import { codemodeTool } from "ai-codemode";',
  "const tool = codemodeTool({ tools: myToolSet });",
  "```",
  "",
  "- In a list:",
  "",
  "  ```ts",
  '  import { QuickJSExecutor } from "ai-codemode/sandbox";',
  "  const executor = new QuickJSExecutor({ timeoutMs: 1000 });",
  '  await executor.run({ program: "async () => 1", bindings: [{ global: "math", functions: { add: async ({ a }) => a } }] });',
  "  ```",
  "",
].join("\n");

describe("README samples", () => {
  it("extracts ts blocks, indented ones included, and skips other languages", () => {
    const samples = extractTypeScriptSamples(BROKEN);
    expect(samples.map((sample) => sample.line)).toEqual([8, 15]);
    expect(samples[1]!.code).toMatch(/^import \{ QuickJSExecutor \}/);
  });

  it(
    "every TypeScript sample of README.md compiles with --strict against dist/",
    () => {
      const samples = extractTypeScriptSamples(readFileSync(resolve(root, "README.md"), "utf8"));
      expect(samples.length).toBeGreaterThanOrEqual(8);
      expect(checkSamples({ samples })).toEqual([]);
    },
    COMPILE_TIMEOUT_MS,
  );

  it(
    "reports a sample that does not compile at its Markdown line",
    () => {
      const diagnostics = checkSamples({ samples: extractTypeScriptSamples(BROKEN) });
      expect(diagnostics).toHaveLength(1);
      expect(diagnostics[0]).toMatchObject({
        line: 17,
        message: expect.stringContaining("not assignable to type 'CodeBindingFunction'"),
      });
    },
    COMPILE_TIMEOUT_MS,
  );
});
