// Shared by both demo processes: the database, the two namespaces and the runtime.
import { mkdirSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { createCodemodeRuntime } from "ai-codemode";
import { openMemory, seedMemory } from "./memory.mjs";
import { openTracker, trackerConnector } from "./tracker.mjs";

export const STATE_DIR = resolve(process.env.CODEMODE_DEMO_DIR ?? ".codemode");
export const SESSION_FILE = resolve(STATE_DIR, "demo-session.json");
const MEMORY_FILE = resolve(STATE_DIR, "demo-memory.jsonl");

/** Opens the demo's world; `reset` starts from the seed data with an empty history. */
export async function openDemo({ reset }) {
  mkdirSync(STATE_DIR, { recursive: true });
  // The journal uses the package default (file:.codemode/codemode.db) unless CODEMODE_DATABASE_URL is set;
  // the tracker keeps its table in the same database.
  const url = process.env.CODEMODE_DATABASE_URL ?? `file:${resolve(STATE_DIR, "codemode.db")}`;
  if (reset) rmSync(MEMORY_FILE, { force: true });
  const db = await openTracker({ url, reset });
  const memory = await openMemory({ memoryFile: MEMORY_FILE });
  if (reset) await seedMemory(memory);
  const runtime = createCodemodeRuntime({
    name: "demo",
    store:
      process.env.CODEMODE_DATABASE_URL === undefined && process.env.CODEMODE_DEMO_DIR !== undefined ? url : undefined,
    connectors: { tracker: trackerConnector(db), memory: await memory.tools() },
  });
  if (reset) await runtime.clearHistory();
  return {
    db,
    runtime,
    async close() {
      await runtime.close();
      await memory.close();
      db.close();
    },
  };
}
