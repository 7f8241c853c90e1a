// The next invocation: nothing in memory but the database. Approves or rejects the paused
// execution, lets the model continue with the outcome, and prints the audit trail.
import { readFileSync } from "node:fs";
import { generateText } from "ai";
import { demoModel } from "./model.mjs";
import { bold, dim, green, red, step, table, yellow } from "./print.mjs";
import { openDemo, SESSION_FILE } from "./setup.mjs";

const decision = process.argv[2];
const rollback = process.argv.includes("--rollback");
const session = JSON.parse(readFileSync(SESSION_FILE, "utf8"));
const { executionId } = session;

step(`process ${process.pid}: a new runtime on the same database`);
const demo = await openDemo({ reset: false });
const { runtime } = demo;
for (const action of await runtime.pending(executionId)) {
  console.log(
    yellow(`    pending #${action.seq}: ${action.connector}.${action.method}(${JSON.stringify(action.args)})`),
  );
}

let output;
if (decision === "approve") {
  step("approve → the same code runs again with the same id; recorded calls are replayed, the approved one runs");
  output = await runtime.approve({ executionId });
} else {
  step("reject → the run ends; nothing after the pending call runs");
  const rejected = await runtime.reject({ executionId, reason: "Not now." });
  output =
    rejected.status === "rejected"
      ? {
          status: "error",
          executionId,
          kind: "rejected",
          error: "A human rejected the pending call; the program was stopped and nothing else ran.",
        }
      : rejected;
}
if (output.status === "completed") console.log(green("    ✓ completed") + dim(` → ${JSON.stringify(output.result)}`));
else if (output.status === "paused") console.log(yellow(`    ⏸ paused again (${output.pending.length} pending)`));
else console.log(red(`    ✗ ${output.kind}: ${output.error}`));

// Give the model the outcome on the same codemode tool call, and let it answer.
const messages = session.messages.map((message) =>
  message.role !== "tool"
    ? message
    : {
        ...message,
        content: message.content.map((part) =>
          part.type === "tool-result" && part.toolCallId === session.toolCallId
            ? { ...part, output: { type: "json", value: output } }
            : part,
        ),
      },
);
const { model } = await demoModel();
const final = await generateText({ model, tools: { codemode: runtime.tool() }, messages });
step("the model answers:");
console.log(bold(`    ${final.text}`));

if (rollback) {
  step("rollback → applied calls are walked newest first and each method's revert runs");
  const rolled = await runtime.rollback({ executionId });
  console.log(
    rolled.status === "rolled_back"
      ? green(`    ✓ reverted calls ${rolled.reverted.join(", ")}`)
      : red(`    ✗ ${rolled.error}`),
  );
}

const detail = await runtime.execution(executionId);
step(`audit trail of ${executionId} (${detail.status}, ${detail.passes} passes) — never shown to the model:`);
table(
  ["seq", "call", "state", "how", "duration"],
  detail.calls.map((call) => [
    String(call.seq),
    `${call.connector}.${call.method}`,
    call.status,
    call.status === "pending"
      ? "waiting"
      : call.startedAt === undefined
        ? "never ran"
        : call.replayedCount > 0
          ? `executed once, replayed ×${call.replayedCount}`
          : "executed",
    call.startedAt !== undefined && call.finishedAt !== undefined ? `${call.finishedAt - call.startedAt} ms` : "—",
  ]),
);
step("executions in this history:");
table(
  ["id", "status", "passes"],
  (await runtime.executions()).map((execution) => [execution.executionId, execution.status, String(execution.passes)]),
);
await demo.close();
