/**
 * The temp-folder guard of the test run: a private TMPDIR while the run lasts; at teardown the
 * folder is removed, and anything a test left in it (tool caches aside) fails the run, named.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import setup from "./private-tmpdir.js";

describe("private-tmpdir global setup", () => {
  const outer = process.env["TMPDIR"];
  afterEach(() => {
    process.exitCode = undefined;
    vi.restoreAllMocks();
    if (outer === undefined) delete process.env["TMPDIR"];
    else process.env["TMPDIR"] = outer;
  });

  it("passes and removes the folder when the tests left nothing but tool caches", () => {
    const teardown = setup();
    const folder = tmpdir();
    mkdirSync(join(folder, "node-compile-cache"));
    teardown();
    expect(existsSync(folder)).toBe(false);
    expect(process.env["TMPDIR"]).toBe(outer);
    expect(process.exitCode).toBeUndefined();
  });

  it("fails the run and names what a test left behind", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const teardown = setup();
    const folder = tmpdir();
    writeFileSync(join(folder, "forgotten.db"), "");
    teardown();
    expect(existsSync(folder)).toBe(false);
    expect(process.exitCode).toBe(1);
    expect(error).toHaveBeenCalledWith(expect.stringContaining("left 1 entry in the run's temp folder: forgotten.db"));
  });
});
