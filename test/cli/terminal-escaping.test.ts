import { afterAll, beforeAll, expect, it } from "vitest";
import { createDurableRuntime } from "../../src/runtime/durable-runtime.js";
import { sharedExecutor } from "../runtime/runtime-fixture.js";
import { createJournalFixture, type JournalFixture } from "../inspector/journal-fixture.js";
import { cli } from "./cli-support.js";

let fixture: JournalFixture;
let executionId: string;

beforeAll(async () => {
  fixture = await createJournalFixture();
  // Another runtime name in the same database: a program whose text, arguments and logs carry terminal escapes.
  const hostile = createDurableRuntime({
    name: "hostile",
    store: fixture.storeUrl,
    executor: sharedExecutor(),
    connectors: { term: { methods: { echo: { execute: (args) => args } } } },
  });
  const out = await hostile.execute({
    code: "async () => {\n  // \u001b[2J\u001b[31mcleared\n  console.log('\u001b]0;pwned\u0007title');\n  return term.echo({ text: '\u001b[1A\u001b[2Kgone\u009b31m' });\n}",
  });
  executionId = out.executionId;
  await hostile.close();
});
afterAll(() => fixture.cleanup());

it("prints untrusted program text, arguments, results and logs with control characters escaped", async () => {
  const out = await cli(["show", executionId, "--name", "hostile", "--store", fixture.storeUrl], {
    now: Date.now(),
    cwd: fixture.dir,
  });
  expect(out.code).toBe(0);
  expect(out.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  expect(out.stdout).toContain("  2 │   // \\u{1b}[2J\\u{1b}[31mcleared");
  expect(out.stdout).toContain('args    {"text":"\\u001b[1A\\u001b[2Kgone\\u{9b}31m"}');
  expect(out.stdout).toContain("  \\u{1b}]0;pwned\\u{7}title");
  const table = await cli(["executions", "--name", "hostile", "--store", fixture.storeUrl], {
    now: Date.now(),
    cwd: fixture.dir,
  });
  expect(table.stdout).toContain(executionId);
  expect(table.stdout).not.toMatch(/\u001b/);
});
