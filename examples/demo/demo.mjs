// npm run demo [-- --interactive | --reject | --rollback]
//
// An assistant session over two namespaces (a libSQL issue tracker and a real MCP server) in which
// the model's program pauses for approval. A separate process — standing in for the next
// serverless invocation — then approves (or rejects) and finishes it by deterministic replay.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createInterface } from "node:readline/promises";
import { fileURLToPath } from "node:url";
import { generateText, isStepCount } from "ai";
import { hasPausedCodemode } from "ai-codemode/ui";
import { DEMO_PROMPT, demoModel } from "./model.mjs";
import { bold, dim, green, indent, red, step, yellow } from "./print.mjs";
import { allIssues, openTracker } from "./tracker.mjs";
import { openDemo, SESSION_FILE, STATE_DIR } from "./setup.mjs";

const flags = new Set(process.argv.slice(2));
const known = new Set(["--interactive", "--reject", "--rollback"]);
for (const flag of flags) {
  if (!known.has(flag)) {
    console.error(`Unknown option ${flag}. Use --interactive, --reject or --rollback.`);
    process.exit(2);
  }
}

console.log(bold("ai-codemode demo") + dim(`  (state in ${STATE_DIR})`));
const { model, label } = await demoModel();
step(`model: ${label}`);
step("opening the embedded libSQL database, the issue tracker and the MCP memory server (stdio)");
const demo = await openDemo({ reset: true });
console.log(dim(`    user: ${DEMO_PROMPT}`));

const result = await generateText({
  model,
  tools: { codemode: demo.runtime.tool() },
  prompt: DEMO_PROMPT,
  stopWhen: [isStepCount(8), hasPausedCodemode()],
  onStepFinish: ({ toolCalls, toolResults }) => {
    for (const call of toolCalls) {
      step(`the model calls ${bold("codemode")} with a program:`);
      console.log(dim(indent(call.input.code, "    │ ")));
    }
    for (const { output } of toolResults) {
      if (output.status === "completed") {
        console.log(green(`    ✓ completed`) + dim(` → ${JSON.stringify(output.result).slice(0, 160)}`));
        for (const log of output.logs ?? []) console.log(dim(`    log: ${log}`));
      } else if (output.status === "paused") {
        console.log(yellow(`    ⏸ paused: ${output.pending.length} call(s) need approval`));
      } else {
        console.log(red(`    ✗ ${output.kind}: ${output.error}`));
      }
    }
  },
});

const paused = result.steps.flatMap((s) => s.toolResults).find((r) => r.output.status === "paused");
if (paused === undefined) {
  console.log(result.text);
  console.error(red("The model finished without a pause; nothing to approve."));
  await demo.close();
  process.exit(1);
}
const { executionId, pending } = paused.output;
for (const action of pending) {
  console.log(yellow(`    waiting: ${action.connector}.${action.method}(${JSON.stringify(action.args)})`));
}
writeFileSync(
  SESSION_FILE,
  JSON.stringify({
    executionId,
    toolCallId: paused.toolCallId,
    messages: [{ role: "user", content: DEMO_PROMPT }, ...result.responseMessages],
  }),
);
await demo.close();
step(`this invocation ends; execution ${bold(executionId)} is paused in the database`);

let decision = flags.has("--reject") ? "reject" : "approve";
if (flags.has("--interactive")) {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const reply = await rl.question(
    bold(`Approve ${pending.map((a) => `${a.connector}.${a.method}`).join(", ")}? [y/n] `),
  );
  rl.close();
  decision = /^y(es)?$/i.test(reply.trim()) ? "approve" : "reject";
}
const args = [fileURLToPath(new URL("./resume.mjs", import.meta.url)), decision];
if (flags.has("--rollback")) args.push("--rollback");
step(`starting a separate process to ${decision} (the next serverless invocation)`);
const child = spawnSync(process.execPath, args, { stdio: "inherit", env: process.env });
if (child.status !== 0) {
  console.error(red(`The resuming process failed (exit ${child.status}).`));
  process.exit(1);
}

const db = await openTracker({ url: `file:${STATE_DIR}/codemode.db` });
const tracking = (await allIssues(db)).filter((issue) => issue.labels.includes("tracking"));
db.close();
const expected = decision === "approve" && !flags.has("--rollback") ? 1 : 0;
const verdict = tracking.length === expected ? green("✓") : red("✗");
console.log(`${verdict} tracking issues in the tracker: ${tracking.length} (expected ${expected})`);
process.exit(tracking.length === expected ? 0 : 1);
