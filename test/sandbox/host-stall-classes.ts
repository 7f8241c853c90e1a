/**
 * Programs that made the host decode (or encode) a value the program controls on its event loop
 * (issue 14, defect 1), each with the outcome it must have now. Shared by the host-stall test and
 * the `hostile` benchmark. Bindings: `host.echo(x)` (returns its argument), `host.ok()`.
 */

export interface StallClass {
  name: string;
  program: string;
  /** `RegExp`: the run fails with a message matching it; `"completed"`: the run succeeds. */
  expect: RegExp | "completed";
}

export const STALL_CLASSES: StallClass[] = [
  {
    name: "20 BigInt arguments of 3 million digits (String replaced first)",
    program:
      "String = () => '9'.repeat(3e6); const big = 10n ** 5000n; await Promise.all(Array.from({ length: 20 }, () => host.echo(big)))",
    expect: /BigInt values over about 4,000 digits/,
  },
  {
    name: "one argument object of 400,000 keys",
    program: "const o = {}; for (let i = 0; i < 4e5; i++) o['k' + i] = i; await host.echo(o)",
    expect: /host\.echo arguments: would be [\d,]+ characters once encoded, over the journal's limit of 1,000,000/,
  },
  {
    name: "a result of 400,000 keys",
    program: "const o = {}; for (let i = 0; i < 4e5; i++) o['k' + i] = i; o",
    expect: /The program's result would be [\d,]+ characters once encoded/,
  },
  {
    name: "Promise.all of 10,000 host calls (maxCallsInFlight)",
    program: "const r = await Promise.all(Array.from({ length: 10000 }, (_, i) => host.echo(i))); r.length",
    expect: "completed",
  },
  {
    name: "Promise.all of 20,000 host calls, over maxCallsInFlight",
    program: "const r = await Promise.all(Array.from({ length: 20000 }, (_, i) => host.echo(i))); r.length",
    expect: /more than 10,000 connector calls without waiting for them .*maxCallsInFlight/,
  },
  {
    name: "150 string arguments of 10 MB",
    program: "const s = 'x'.repeat(1e7); await Promise.all(Array.from({ length: 150 }, () => host.echo(s)))",
    expect: /host\.echo arguments: would be 10,000,002 characters/,
  },
  {
    name: "40 arguments and host results of 900,000 characters each, awaited one by one",
    program: "const s = 'x'.repeat(9e5); let n = 0; for (let i = 0; i < 40; i++) n += (await host.echo(s)).length; n",
    expect: "completed",
  },
];
