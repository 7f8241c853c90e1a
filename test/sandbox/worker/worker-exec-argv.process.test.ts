/**
 * Sandbox workers leave out the parent's flags that only concern the main entry (`--input-type`, `--eval`, test
 * runner and watch flags) and keep the rest. Observed in real `node --input-type=module -e` processes running the
 * built package, and on the flag lists directly.
 */
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { sandboxWorkerExecArgv, withoutEntryFlags } from "../../../src/sandbox/worker/worker-exec-argv.js";

const ENTRY = pathToFileURL(resolve("dist/index.js")).href;

/** One program through a worker-isolated executor of the built package, in a `node <flags> -e` process. */
function runUnder(flags: string[]): unknown {
  const program = `
    const { QuickJSExecutor } = await import(${JSON.stringify(ENTRY)});
    const executor = new QuickJSExecutor({ isolation: "worker-thread" });
    const result = await executor.run({ program: "6 * 7", bindings: [] });
    await executor.dispose();
    console.log(JSON.stringify(result));`;
  const stdout = execFileSync(process.execPath, [...flags, "-e", program], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "null");
}

describe("the flags a sandbox worker starts with", () => {
  it("a program runs in a worker under `node --input-type=module -e`", () => {
    expect(runUnder(["--input-type=module"])).toEqual({ value: 42, logs: [] });
  });

  it("with V8 and process-wide flags beside it, which a worker's own list may not hold", () => {
    const flags = [
      "--max-old-space-size=512",
      "--stack-trace-limit=20",
      "--conditions=custom",
      "--input-type",
      "module",
    ];
    expect(runUnder(flags)).toEqual({ value: 42, logs: [] });
  });

  it("entry, test runner and watch flags are left out with their values; the others are kept", () => {
    const parent = [
      "--import",
      "tsx",
      "-r",
      "./setup.cjs",
      "--conditions=custom",
      "--experimental-vm-modules",
      "--input-type=module",
      "--test-name-pattern",
      "adds",
      "--experimental-test-coverage",
      "--watch-path=./src",
      "-p",
      "-1",
      "--eval",
      "code()",
    ];
    expect(withoutEntryFlags(parent)).toEqual([
      ["--import", "tsx"],
      ["-r", "./setup.cjs"],
      ["--conditions=custom"],
      ["--experimental-vm-modules"],
    ]);
  });

  it("a parent without such flags is inherited as Node does by default", () => {
    expect(withoutEntryFlags(["--import", "tsx", "--conditions=custom"])).toBeUndefined();
    expect(sandboxWorkerExecArgv(["--conditions=custom", "--max-old-space-size=512"])).toBeUndefined();
  });

  it("an explicit list leaves out what Node refuses in a worker (it already applies to the whole process)", () => {
    const parent = ["--max-old-space-size=512", "--conditions=custom", "--title=app", "--input-type=module", "-e", "x"];
    expect(sandboxWorkerExecArgv(parent)).toEqual(["--conditions=custom"]);
  });
});
