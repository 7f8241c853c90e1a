/**
 * A fresh folder in the OS temp folder, removed when the current test finishes (pass or fail).
 * Call it inside a test; a folder shared by several tests is made in `beforeAll` and removed in
 * `afterAll` instead.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";

/** Creates `<tmpdir>/<prefix>XXXXXX` and schedules its removal at the end of the running test. */
export function tempFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}
