// Snippets: save an execution's code under a name; programs run it with `codemode.run(name, input)`.
//   node examples/snippets.mjs
import { createCodemodeRuntime } from "ai-codemode";
import { paymentsTools, show } from "./shared.mjs";

const { tools } = paymentsTools();
const runtime = createCodemodeRuntime({ store: ":memory:", connectors: { payments: tools } });
const first = await runtime.execute({
  code: `async () => {
    const charge = await payments.get_charge({ chargeId: input?.chargeId ?? "ch_1" });
    return { chargeId: charge.chargeId, euros: charge.amount / 100 };
  }`,
});
show("first run", first);
show(
  "save",
  await runtime.saveSnippet("charge_in_euros", {
    executionId: first.executionId,
    description: "A charge's amount in euros",
    inputSchema: { type: "object", properties: { chargeId: { type: "string" } } },
  }),
);
show(
  "search",
  (await runtime.search("charge euros")).results.map((hit) => `${hit.kind}:${hit.path}`),
);
const reuse = await runtime.execute({
  code: `async () => {
    const a = await codemode.run("charge_in_euros", { chargeId: "ch_7" });
    const missing = await codemode.run("no_such_snippet");
    return { a, missing };
  }`,
});
show("reuse", reuse);
show(
  "snippets",
  (await runtime.snippets()).map((snippet) => snippet.name),
);
await runtime.close();
