/**
 * Connectors that return or throw hostile values, in a separate process (an OOM or an uncaught exception shows as
 * that process dying), through the bare executor and the durable runtime, in both isolations: the process
 * survives, the program gets a rejection with a message it can act on, the call row ends `error`, and encoding a
 * value that costs its maker nothing (`new Array(1e9)`) stops at the bound instead of growing the host's memory.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const FIXTURE = fileURLToPath(new URL("./fixtures/hostile-connector-process.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const MIB = 1024 * 1024;
/** Growth of the child's peak RSS or heap allowed for one case: generous (the unbounded encoder took 1–1.8 GB). */
const MAX_GROWTH_BYTES = 200 * MIB;

interface CaseLine {
  name: string;
  outcome: {
    bare: { value?: { returned?: string; rejected?: string }; error?: { kind: string; message: string } };
    runtime: { status: string; kind?: string; error?: string; result?: { returned?: string; rejected?: string } };
    execution: { status: string; calls: Array<{ status: string; error?: string }> };
  };
  grown: { peakRss: number; heapUsed: number };
}

/** Runs the cases in one child process; each line it printed, and how it ended. */
function runChild(isolation: string, names: string[]): { lines: CaseLine[]; status: number | null; stderr: string } {
  const child = spawnSync(
    process.execPath,
    // A heap far below what the unbounded encoder needed: an encoder that does not stop dies here quickly.
    ["--max-old-space-size=600", "--import", "tsx", FIXTURE, isolation, ...names],
    { cwd: ROOT, encoding: "utf8", timeout: 240_000, maxBuffer: 16 * MIB },
  );
  const lines = child.stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as CaseLine);
  return { lines, status: child.status, stderr: child.stderr };
}

const THROWN = [
  "throws an Error whose message, name and stack getters throw",
  "throws a proxy that throws on every trap",
  "throws a revoked proxy",
  "throws a number",
  "throws undefined",
  "throws an object whose toString, toJSON and Symbol.toPrimitive throw",
  "throws new Array(1e9)",
];
const OVERSIZED = ["returns new Array(1e7)", "returns new Array(1e9)"];
const ALL = [...THROWN, "returns a proxy that throws on every trap", ...OVERSIZED];

describe.each(["in-process", "worker-thread"])("hostile connectors in a separate process (%s)", (isolation) => {
  const run = (() => {
    let result: ReturnType<typeof runChild> | undefined;
    return () => {
      result ??= runChild(isolation, ALL);
      return result;
    };
  })();

  it("the process survives every case and reports each", { timeout: 300_000 }, () => {
    const { lines, status, stderr } = run();
    expect({ status, stderr: stderr.slice(0, 2_000) }).toEqual({ status: 0, stderr: "" });
    expect(lines.map((line) => line.name)).toEqual(ALL);
  });

  it.each(THROWN)("%s: the program gets a rejection, the call row ends error", { timeout: 300_000 }, (name) => {
    const line = run().lines.find((candidate) => candidate.name === name);
    expect(line, "the child died before this case").toBeDefined();
    const { bare, runtime, execution } = (line as CaseLine).outcome;
    expect(bare.error).toBeUndefined();
    expect(bare.value?.rejected).toEqual(expect.any(String));
    expect(runtime).toMatchObject({ status: "completed", result: { rejected: expect.any(String) } });
    expect(execution).toEqual({ status: "completed", calls: [{ status: "error", error: expect.any(String) }] });
    // The message is bounded and says something (a thrown value's text, or that it could not be read).
    expect(runtime.result?.rejected?.length).toBeLessThan(1_000);
    expect(runtime.result?.rejected).not.toBe("");
  });

  it("a returned proxy that throws on every trap: the call fails with a codec message", { timeout: 300_000 }, () => {
    const line = run().lines.find((candidate) => candidate.name === "returns a proxy that throws on every trap");
    expect(line, "the child died before this case").toBeDefined();
    const { bare, runtime, execution } = (line as CaseLine).outcome;
    expect(bare.value?.rejected).toMatch(/could not be read/);
    expect(runtime).toMatchObject({
      status: "error",
      kind: "limit",
      error: expect.stringMatching(/could not be read/),
    });
    expect(execution).toMatchObject({ status: "error", calls: [{ status: "error" }] });
  });

  it.each(OVERSIZED)("%s: refused at the bound with bounded memory growth", { timeout: 300_000 }, (name) => {
    const line = run().lines.find((candidate) => candidate.name === name);
    expect(line, "the child died before this case").toBeDefined();
    const { outcome, grown } = line as CaseLine;
    expect(outcome.bare.value?.rejected).toMatch(/over 1,000,000 characters once encoded.*Ask for less/);
    expect(outcome.runtime).toMatchObject({
      status: "error",
      kind: "limit",
      error: expect.stringMatching(/over the journal's limit of 1,000,000 characters/),
    });
    expect(outcome.execution).toMatchObject({ status: "error", calls: [{ status: "error" }] });
    expect(grown.peakRss).toBeLessThan(MAX_GROWTH_BYTES);
    expect(grown.heapUsed).toBeLessThan(MAX_GROWTH_BYTES);
  });
});
