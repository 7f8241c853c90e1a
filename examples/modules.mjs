// npm packages inside the sandbox: lodash-es, date-fns and papaparse bundled with esbuild into ES module text
// (an app does this at build time; see docs/modules.md), given to the runtime as `modules`, imported by a program.
// The refund pauses for approval; the approved pass imports the same modules (their hashes are recorded).
//   node examples/modules.mjs
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { createCodemodeRuntime } from "ai-codemode";
import { paymentsTools, show } from "./shared.mjs";

/** One package (or a few of its exports) as one self-contained ES module. */
async function bundle(entry) {
  const result = await build({
    stdin: { contents: entry, resolveDir: import.meta.dirname, loader: "js" },
    bundle: true,
    format: "esm",
    platform: "browser", // papaparse's Node build reaches for `stream`
    minify: true,
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0].text;
}

const modules = {
  "lodash-es": {
    source: await bundle('export { groupBy, sumBy } from "lodash-es";'),
    types: [
      "export function groupBy<T>(items: T[], key: string | ((item: T) => unknown)): Record<string, T[]>;",
      "export function sumBy<T>(items: T[], by: string | ((item: T) => number)): number;",
    ].join("\n"),
  },
  "date-fns": await bundle('export { format, parseISO } from "date-fns";'),
  papaparse: await bundle('export { default } from "papaparse";'),
};
show(
  "module sizes",
  Object.fromEntries(Object.entries(modules).map(([name, module]) => [name, (module.source ?? module).length])),
);

const store = `file:${join(mkdtempSync(join(tmpdir(), "codemode-example-")), "codemode.db")}`;
const { tools, ledger } = paymentsTools();
const runtime = createCodemodeRuntime({ store, connectors: { payments: tools }, modules });

const code = `import { groupBy, sumBy } from "lodash-es";
import { format, parseISO } from "date-fns";
import Papa from "papaparse";
const csv = "charge,customer,amount,day\\nch_1,cus_42,4200,2026-01-05\\nch_2,cus_7,900,2026-01-06\\nch_3,cus_42,300,2026-01-06";
const rows = Papa.parse(csv, { header: true, dynamicTyping: true }).data;
const byCustomer = groupBy(rows, "customer");
const biggest = rows.reduce((a, b) => (b.amount > a.amount ? b : a));
const refund = await payments.refund_charge({ chargeId: biggest.charge, amount: biggest.amount });
return {
  customers: Object.keys(byCustomer),
  total: sumBy(rows, "amount"),
  refunded: refund.refundId,
  on: format(parseISO(biggest.day), "d MMM yyyy"),
};`;

const paused = await runtime.execute({ code });
show("first pass", { status: paused.status, pending: paused.pending?.map((call) => call.method) });
const done = await runtime.approve({ executionId: paused.executionId });
show("approved", done);
show("refunds", ledger);
show("describe lodash-es", (await runtime.describe("lodash-es")).types.split("\n")[0]);
show(
  "tool description line",
  runtime
    .tool()
    .description.split("\n")
    .find((line) => line.startsWith("Modules")) ?? null,
);
await runtime.close();
