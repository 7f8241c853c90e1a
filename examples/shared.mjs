// A tiny in-memory "payments" tool set used by the examples, with a side-effect ledger so each
// example can show what really happened.
import { tool } from "ai";
import { z } from "zod";

/** Creates the payments tools and the ledger of effects they had. */
export function paymentsTools() {
  const ledger = [];
  let nextRefund = 1;
  const tools = {
    get_charge: tool({
      description: "Look up a charge by id.",
      inputSchema: z.object({ chargeId: z.string() }),
      execute: async ({ chargeId }) => ({ chargeId, amount: 4200, currency: "eur", customer: "cus_42" }),
    }),
    refund_charge: tool({
      description: "Refund a charge. Needs approval.",
      inputSchema: z.object({ chargeId: z.string(), amount: z.number().int().positive() }),
      needsApproval: true,
      execute: async ({ chargeId, amount }) => {
        const refund = { refundId: `re_${nextRefund++}`, chargeId, amount };
        ledger.push({ effect: "refund", ...refund });
        return refund;
      },
    }),
  };
  return { tools, ledger };
}

/** Prints a labelled value as JSON. */
export function show(label, value) {
  console.log(`${label}: ${JSON.stringify(value)}`);
}
