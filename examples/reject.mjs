// Reject a pending call: the run ends `rejected`, nothing after the pending call runs.
//   node examples/reject.mjs
import { createCodemodeRuntime } from "ai-codemode";
import { paymentsTools, show } from "./shared.mjs";

const { tools, ledger } = paymentsTools();
const runtime = createCodemodeRuntime({ store: ":memory:", connectors: { payments: tools } });
const paused = await runtime.execute({
  code: `await payments.refund_charge({ chargeId: "ch_1", amount: 500 }); return "refunded";`,
});
show("paused", paused);
show("reject", await runtime.reject({ executionId: paused.executionId, reason: "Amount looks wrong" }));
show("approve afterwards", await runtime.approve({ executionId: paused.executionId }));
show("effects", ledger);
show("status", (await runtime.execution(paused.executionId)).status);
await runtime.close();
