// Pause in one process, approve in another: nothing is kept in memory in between.
//   node examples/approve-in-another-process.mjs
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCodemodeRuntime } from "ai-codemode";
import { paymentsTools, show } from "./shared.mjs";

const [, script, role, store, executionId] = process.argv;
const { tools, ledger } = paymentsTools();

if (role === "approver") {
  // A later invocation: a fresh runtime on the same database.
  const runtime = createCodemodeRuntime({ store, connectors: { payments: tools } });
  show("approver sees pending", await runtime.pending(executionId));
  const output = await runtime.approve({ executionId });
  show("approved output", output);
  show("effects in the approver process", ledger);
  await runtime.close();
} else {
  const url = `file:${join(mkdtempSync(join(tmpdir(), "codemode-example-")), "codemode.db")}`;
  const runtime = createCodemodeRuntime({ store: url, connectors: { payments: tools } });
  const output = await runtime.execute({
    code: `async () => {
      const charge = await payments.get_charge({ chargeId: "ch_1" });
      const refund = await payments.refund_charge({ chargeId: charge.chargeId, amount: charge.amount });
      return { refunded: refund.amount, refundId: refund.refundId };
    }`,
  });
  show("first process output", output);
  show("effects in the first process", ledger);
  await runtime.close();
  spawnSync(process.execPath, [script, "approver", url, output.executionId], { stdio: "inherit" });
}
