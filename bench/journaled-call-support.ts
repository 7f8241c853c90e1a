/**
 * What the journaled-call benches share: a median, a temporary folder for their databases, and the end-to-end
 * program with its tools (the parent and the approving child process build the same ones).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tool } from "ai";
import { z } from "zod";
import { connector } from "../src/connectors/connector.js";

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A fresh temporary folder and its removal. */
export function benchFolder(prefix: string): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** The shop of the end-to-end program: zod-validated tools; `charge` needs approval, `lookup` only reads. */
export function shopTools() {
  return {
    lookup: tool({
      description: "Looks up an item's price.",
      inputSchema: z.object({ sku: z.string().min(1) }),
      execute: async ({ sku }: { sku: string }) => ({ sku, price: sku.length * 100 }),
    }),
    reserve: tool({
      description: "Reserves stock for an item.",
      inputSchema: z.object({ sku: z.string().min(1), quantity: z.number().int().positive() }),
      execute: async ({ sku, quantity }: { sku: string; quantity: number }) => ({ sku, reserved: quantity }),
    }),
    charge: tool({
      description: "Charges the customer.",
      inputSchema: z.object({ amount: z.number().positive() }),
      execute: async ({ amount }: { amount: number }) => ({ charged: amount }),
    }),
  };
}

/** The shop as ai-codemode's connector: reads marked `readOnly`, the charge needing approval. */
export function shopConnector() {
  return connector(shopTools(), { methods: { lookup: { readOnly: true }, charge: { needsApproval: true } } });
}

const SKUS = ["apple", "pear", "plum", "fig", "kiwi", "lime", "date", "yuzu", "lemon", "mango"];

/**
 * The end-to-end program's body (the peer takes a body): 10 reads, 9 reservations, one charge (20 validated
 * calls); returns the total charged.
 */
export const SHOP_BODY = `const skus = ${JSON.stringify(SKUS)};
let total = 0;
for (const sku of skus) total += (await tools.lookup({ sku })).price;
for (const sku of skus.slice(1)) await tools.reserve({ sku, quantity: 2 });
return (await tools.charge({ amount: total })).charged;`;

/** What the program returns. */
export const SHOP_RESULT = SKUS.reduce((sum, sku) => sum + sku.length * 100, 0);
