/**
 * The programs of the round-trips bench (bench/roundtrips.ts) and the table
 * rows: for each program, pass and latency, today's default and the
 * `readOnly` policy side by side.
 */

/** A pass of an execution: the first `execute`, or the `approve` that finishes it. */
export type Pass = "first" | "approval";
/** Today's default, or the read calls marked `readOnly: true`. */
export type PolicyKey = "today" | "readOnly";

/** One measured program over the `shop` connector (`read`, `write`, `approvedWrite`). */
export interface RoundtripProgram {
  name: string;
  code: string;
  passes: Pass[];
  /** The status each pass must end with. */
  expect: Partial<Record<Pass, string>>;
}

export const ROUNDTRIP_PROGRAMS: RoundtripProgram[] = [
  {
    name: "20 reads + 1 approved write",
    code: `async () => {
  let total = 0;
  for (let i = 0; i < 20; i++) total += (await shop.read({ i })).price;
  return shop.approvedWrite({ i: total });
}`,
    passes: ["first", "approval"],
    expect: { first: "paused", approval: "completed" },
  },
  {
    name: "100 reads",
    code: `async () => {
  let total = 0;
  for (let i = 0; i < 100; i++) total += (await shop.read({ i })).price;
  return total;
}`,
    passes: ["first"],
    expect: { first: "completed" },
  },
  {
    name: "`Promise.all` of 10 writes",
    code: "async () => Promise.all(Array.from({ length: 10 }, (_, i) => shop.write({ i })))",
    passes: ["first"],
    expect: { first: "completed" },
  },
];

interface Measured {
  roundTrips: number;
  ms: number;
  readsRerun: number;
}
type Measure = (program: RoundtripProgram, policy: PolicyKey, latencyMs: number) => Promise<Record<Pass, Measured>>;

function cells(measured: Measured | undefined): string[] {
  return measured === undefined ? ["n/a", "n/a"] : [String(measured.roundTrips), `${measured.ms.toFixed(0)} ms`];
}

/** Measures every program at every latency (both policies when `readOnly` is supported) and returns the table rows. */
export async function roundtripRows(latenciesMs: number[], readOnly: boolean, measure: Measure): Promise<string[]> {
  const rows: string[] = [];
  for (const program of ROUNDTRIP_PROGRAMS) {
    for (const latencyMs of latenciesMs) {
      const today = await measure(program, "today", latencyMs);
      const marked = readOnly ? await measure(program, "readOnly", latencyMs) : undefined;
      for (const pass of program.passes) {
        const rerun = pass === "approval" ? String((marked ?? today)[pass].readsRerun) : "–";
        rows.push(
          `| ${program.name} | ${pass} | ${latencyMs} ms | ${[...cells(today[pass]), ...cells(marked?.[pass]), rerun].join(" | ")} |`,
        );
      }
    }
  }
  return rows;
}
