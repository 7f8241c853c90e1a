// Rollback: applied calls are walked newest first and each method's `revert` compensates it.
//   node examples/rollback.mjs
import { connector, createCodemodeRuntime } from "ai-codemode";
import { paymentsTools, show } from "./shared.mjs";

const { tools, ledger } = paymentsTools();
const payments = connector(tools, {
  methods: {
    refund_charge: {
      revert: async (_args, result) => {
        ledger.push({ effect: "reverse-refund", refundId: result.refundId });
      },
    },
  },
});
const runtime = createCodemodeRuntime({ store: ":memory:", connectors: { payments } });
const paused = await runtime.execute({
  code: `async () => {
    const a = await payments.refund_charge({ chargeId: "ch_1", amount: 100 });
    const b = await payments.refund_charge({ chargeId: "ch_2", amount: 200 });
    return [a.refundId, b.refundId];
  }`,
});
let output = paused;
while (output.status === "paused") output = await runtime.approve({ executionId: output.executionId });
show("completed", output);
show("rollback", await runtime.rollback({ executionId: output.executionId }));
show("rollback again (idempotent)", await runtime.rollback({ executionId: output.executionId }));
show("effects", ledger);
await runtime.close();
