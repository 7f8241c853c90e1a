/**
 * The TypeScript samples of README.md and docs/*.md compile against the built package with `--strict`, the
 * runnable ones run, and the checker reports a broken sample at its Markdown file and line (so the docs cannot
 * drift unseen). The README stays a front page: short, with the quick start, linking the topic pages.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkSamples,
  documentationFiles,
  extractTypeScriptSamples,
  type MarkdownSample,
  runSamples,
} from "../../scripts/check-readme-samples.js";

const root = resolve(import.meta.dirname, "../..");
const COMPILE_TIMEOUT_MS = 180_000;
const RUN_TIMEOUT_MS = 600_000;

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
  "```ts runnable",
  'import { QuickJSExecutor } from "ai-codemode/sandbox";',
  'const { value } = await new QuickJSExecutor({}).run({ program: "async () => 6 * 7", bindings: [] });',
  "if (value !== 41) throw new Error(`the sandbox said ${String(value)}`);",
  "```",
  "",
].join("\n");

function documentationSamples(): MarkdownSample[] {
  return documentationFiles().flatMap((file) =>
    extractTypeScriptSamples(readFileSync(resolve(root, file), "utf8"), file),
  );
}

describe("documentation samples", () => {
  it("extracts ts blocks, indented ones included, marks runnable ones, and skips other languages", () => {
    const samples = extractTypeScriptSamples(BROKEN, "broken.md");
    expect(samples.map((sample) => [sample.file, sample.line, sample.runnable])).toEqual([
      ["broken.md", 8, false],
      ["broken.md", 15, false],
      ["broken.md", 21, true],
    ]);
    expect(samples[1]!.code).toMatch(/^import \{ QuickJSExecutor \}/);
  });

  it("covers the README and every page of docs/", () => {
    const files = documentationFiles();
    expect(files[0]).toBe("README.md");
    for (const page of [
      "tool-callers",
      "connectors",
      "durability",
      "chat-approvals",
      "inspector",
      "budgets",
      "tracing",
      "openapi",
      "performance",
    ]) {
      expect(files).toContain(`docs/${page}.md`);
    }
  });

  it(
    "every TypeScript sample of README.md and docs/*.md compiles with --strict against dist/",
    () => {
      const samples = documentationSamples();
      expect(samples.length).toBeGreaterThanOrEqual(20);
      expect(checkSamples({ samples })).toEqual([]);
    },
    COMPILE_TIMEOUT_MS,
  );

  it(
    "every runnable sample runs to exit 0, and the tracing one prints its spans",
    () => {
      const samples = documentationSamples();
      const runs = runSamples({ samples });
      expect(runs.length).toBeGreaterThanOrEqual(6);
      expect(runs.filter((run) => run.status !== 0)).toEqual([]);
      const tracing = runs.find((run) => run.file === "docs/tracing.md");
      expect(tracing?.stdout).toContain("codemode pass 1");
      expect(tracing?.stdout).toContain("execute_tool tools.get_weather");
      const durability = runs.find((run) => run.file === "docs/durability.md");
      expect(durability?.stdout).toMatch(/^paused \[ 'tools\.refund' \]\ncompleted .*refunds run: 1\n$/s);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "reports a sample that does not compile at its Markdown line, and a runnable one that fails",
    () => {
      const samples = extractTypeScriptSamples(BROKEN, "broken.md");
      const diagnostics = checkSamples({ samples });
      expect(diagnostics).toHaveLength(1);
      expect(diagnostics[0]).toMatchObject({
        file: "broken.md",
        line: 17,
        message: expect.stringContaining("not assignable to type 'CodeBindingFunction'"),
      });
      const [run] = runSamples({ samples });
      expect(run).toMatchObject({ file: "broken.md", line: 21, status: 1 });
      expect(run?.stderr).toContain("the sandbox said 42");
    },
    COMPILE_TIMEOUT_MS,
  );
});

describe("the README", () => {
  const readme = readFileSync(resolve(root, "README.md"), "utf8");

  it("fits on a few screens and keeps the quick start", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(300);
    expect(readme).toContain("npm install && npm run demo\nnpm test\n");
  });

  it("does not stop its first sample at a pause: it stops the loop on one and handles the paused output", () => {
    const [first] = extractTypeScriptSamples(readme);
    expect(first?.code).toContain("hasPausedCodemode()");
    expect(first?.code).toContain("isPausedCodemodeOutput(output)");
  });
});
