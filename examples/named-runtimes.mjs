// Two runtime names keep separate histories in one database.
//   node examples/named-runtimes.mjs
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCodemodeRuntime } from "ai-codemode";
import { paymentsTools, show } from "./shared.mjs";

const store = `file:${join(mkdtempSync(join(tmpdir(), "codemode-example-")), "codemode.db")}`;
const { tools } = paymentsTools();
const support = createCodemodeRuntime({ store, name: "support", connectors: { payments: tools } });
const finance = createCodemodeRuntime({ store, name: "finance", connectors: { payments: tools } });
await support.execute({ code: `return (await payments.get_charge({ chargeId: "ch_1" })).amount` });
await support.execute({ code: `return 1 + 1` });
await finance.execute({ code: `return "finance only"` });
show("support executions", (await support.executions()).length);
show("finance executions", (await finance.executions()).length);
await finance.deleteAllData();
show("finance after deleteAllData", (await finance.executions()).length);
show("support after finance.deleteAllData()", (await support.executions()).length);
await support.close();
await finance.close();
