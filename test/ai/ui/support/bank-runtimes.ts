/**
 * Runtimes with the `bank` tools on a fresh file database per test, closed after it, on one in-process
 * executor per file: `bankRuntimes(prefix)` registers the hooks; `ledger` is cleared before each test.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach } from "vitest";
import { createCodemodeRuntime } from "../../../../src/ai/create-codemode-runtime.js";
import type { ApproveProgramOption } from "../../../../src/runtime/program-approval.js";
import { QuickJSExecutor } from "../../../../src/sandbox/quickjs-executor.js";
import { bankTools, type Ledger } from "./chat-harness.js";

export function bankRuntimes(prefix: string): {
  ledger: Ledger;
  open(approveProgram?: ApproveProgramOption): ReturnType<typeof createCodemodeRuntime>;
} {
  const ledger: Ledger = { transfers: [] };
  const opened: Array<ReturnType<typeof createCodemodeRuntime>> = [];
  const executor = new QuickJSExecutor({ isolation: "in-process" });
  let directory = "";
  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), prefix));
    ledger.transfers.length = 0;
  });
  afterEach(async () => {
    for (const runtime of opened.splice(0)) await runtime.close();
    rmSync(directory, { recursive: true, force: true });
  });
  afterAll(async () => {
    await executor.dispose();
  });
  return {
    ledger,
    open(approveProgram) {
      const runtime = createCodemodeRuntime({
        connectors: { bank: bankTools(ledger) },
        store: `file:${path.join(directory, "codemode.db")}`,
        executor,
        ...(approveProgram === undefined ? {} : { approveProgram }),
      });
      opened.push(runtime);
      return runtime;
    },
  };
}
