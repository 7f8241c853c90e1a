/**
 * Serverless MCP instances for the multi-instance tests: processes of test/mcp/fixtures/task-handler.mjs
 * (`createCodemodeMcpHandler` of the built package, `sessions: false`) over one journal file, and the
 * person's side, a runtime in the test over the same file and the same `shop` connector, which approves
 * with `decidedBy`. Effects are lines of a ledger file, so a test counts them across processes.
 */
import { jsonSchema, tool } from "ai";
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createCodemodeRuntime, type CodemodeRuntime } from "../../../src/ai/create-codemode-runtime.js";
import { connector } from "../../../src/connectors/connector.js";
import { listeningUrl } from "./listening-url.js";

const INSTANCE = fileURLToPath(new URL("../fixtures/task-handler.mjs", import.meta.url));

/** A program buying `item` (`shop.buy` needs approval). */
export const BUY = (item: string): string => `async () => shop.buy({ item: ${JSON.stringify(item)} })`;

/** Starts one handler process; resolves with its URL once it listens. */
export function startInstance(database: string, ledger: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [INSTANCE, database, ledger], { stdio: ["ignore", "pipe", "pipe"] });
  return listeningUrl(child, "the instance");
}

/** Stops an instance (SIGTERM: it closes its handler and runtime, then exits). */
export function stopInstance(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** The person's runtime (e.g. the app's inspector) over the instances' journal, with their `shop`. */
export function approverRuntime(database: string, ledger: string): CodemodeRuntime {
  const shop = connector({
    buy: tool({
      inputSchema: jsonSchema<{ item: string }>({
        type: "object",
        properties: { item: { type: "string" } },
        required: ["item"],
      }),
      needsApproval: true,
      execute: async ({ item }) => {
        appendFileSync(ledger, `${process.pid} ${item}\n`);
        return `bought ${item}`;
      },
    }),
    price: tool({
      inputSchema: jsonSchema<{ item: string }>({
        type: "object",
        properties: { item: { type: "string" } },
        required: ["item"],
      }),
      execute: async ({ item }) => item.length,
    }),
  });
  return createCodemodeRuntime({ connectors: { shop }, store: `file:${database}` });
}

/** The effects written to `ledger` so far, one `<pid> <item>` line each. */
export function effects(ledger: string): string[] {
  return existsSync(ledger)
    ? readFileSync(ledger, "utf8")
        .split("\n")
        .filter((line) => line !== "")
    : [];
}
