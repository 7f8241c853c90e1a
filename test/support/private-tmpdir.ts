/**
 * Vitest global setup: every test run gets a private temp folder (`TMPDIR`, inherited by the
 * test workers and every process they start), and the run fails (exit code 1) at teardown if
 * anything is left in it, naming what was left. Tests remove every temp folder and file they
 * create; this makes a test that forgets visible at once, not as clutter in the OS temp folder.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Entries a run may leave because a tool, not a test, owns them: tsx's compile cache (`node --import
 * tsx` children) and Node's module compile cache, which npm ≥ 10.9 turns on (the demo test runs npm).
 */
const TOOL_CACHES = new Set([`tsx-${process.getuid?.() ?? 0}`, "node-compile-cache"]);

/** The entries of `folder` a test left behind (tool caches excluded). */
function leftovers(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => !TOOL_CACHES.has(name))
    .sort();
}

export default function setup(): () => void {
  const outer = process.env["TMPDIR"];
  const folder = mkdtempSync(join(tmpdir(), "codemode-test-run-"));
  // Traversable by others (not listable): the read-only filesystem test runs a child as `nobody` below it.
  chmodSync(folder, 0o711);
  process.env["TMPDIR"] = folder;
  return () => {
    if (outer === undefined) delete process.env["TMPDIR"];
    else process.env["TMPDIR"] = outer;
    const left = leftovers(folder);
    rmSync(folder, { recursive: true, force: true });
    if (left.length === 0) return;
    // A teardown error is only logged by vitest ("error during close"); the exit code makes it fail the run.
    process.exitCode = 1;
    console.error(
      `\nFAIL temp-folder hygiene: the tests left ${left.length} entr${left.length === 1 ? "y" : "ies"} in the run's temp ` +
        `folder: ${left.slice(0, 20).join(", ")}${left.length > 20 ? ", …" : ""}. Remove what a test creates ` +
        "(tempFolder() from test/support/temp-folder.ts, or rmSync in afterAll).\n",
    );
  };
}
