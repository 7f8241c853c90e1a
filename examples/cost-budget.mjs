// A cost budget on an API billed per record: `limits.maxCost` caps what one execution may spend,
// each method's `cost(args)` says what a call costs. The call that would go over does not run.
//   node examples/cost-budget.mjs
import { connector, createCodemodeRuntime } from "ai-codemode";
import { tool } from "ai";
import { z } from "zod";

// A contact-enrichment API that bills one credit per email looked up.
const billed = [];
const enrich = connector(
  {
    lookup: tool({
      description: "Enrich up to 100 emails (one credit per email).",
      inputSchema: z.object({ emails: z.array(z.string()).max(100) }),
      execute: async ({ emails }) => {
        billed.push(emails.length);
        return emails.map((email) => ({ email, company: email.split("@")[1] }));
      },
    }),
  },
  // The cost function sees the program's arguments before the schema checks them: guard what it reads.
  { methods: { lookup: { cost: (args) => (Array.isArray(args?.emails) ? args.emails.length : 0) } } },
);

const runtime = createCodemodeRuntime({ store: ":memory:", connectors: { enrich }, limits: { maxCost: 250 } });
const output = await runtime.execute({
  code: `
    const emails = Array.from({ length: 1000 }, (_, i) => "user" + i + "@example" + (i % 7) + ".com");
    const found = [];
    for (let page = 0; page < emails.length; page += 100) found.push(...(await enrich.lookup({ emails: emails.slice(page, page + 100) })));
    return found.length;`,
});
console.log(`output: ${JSON.stringify({ status: output.status, kind: output.kind, error: output.error })}`);
console.log(`billed records: ${JSON.stringify(billed)}`);
const detail = await runtime.execution(output.executionId);
console.log(`journaled costs: ${JSON.stringify(detail.calls.map((call) => call.cost))}`);
await runtime.close();
