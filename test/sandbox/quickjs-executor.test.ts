import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";
import type { CodeBindingNamespace, CodeRunRequest, CodeRunResult } from "../../src/sandbox/types.js";

const ISOLATIONS = ["in-process", "worker-thread"] as const;

describe.each(ISOLATIONS)("QuickJSExecutor (%s)", (isolation) => {
  let executor: QuickJSExecutor;
  const calls: unknown[] = [];
  const bindings: CodeBindingNamespace[] = [
    {
      global: "math",
      functions: {
        add: async (args) => {
          calls.push(args);
          const { a, b } = args as { a: number; b: number };
          return a + b;
        },
        echo: async (args) => args,
        fail: async () => {
          throw new Error("no such repository");
        },
        failWithString: async () => {
          throw "plain string failure";
        },
        callback: async () => ({ nested: { fn: () => 1 } }),
        ["__proto__"]: async () => "proto member",
        constructor: async () => "constructor member",
        "list-prs": async () => ["#1"],
      },
    },
  ];
  const run = (program: string, extra: Partial<CodeRunRequest> = {}): Promise<CodeRunResult> =>
    executor.run({ program, bindings, ...extra });

  beforeAll(() => {
    executor = new QuickJSExecutor({ isolation, timeoutMs: 2_000, maxLogChars: 500 });
  });
  afterAll(async () => {
    await executor.dispose();
  });

  it("labels itself", () => {
    expect(executor.language).toBe("typescript");
    expect(executor.isolation).toBe(isolation);
  });

  it.each([
    ["an async arrow function", "async () => { const x = await math.add({ a: 1, b: 2 }); return x * 2; }", 6],
    ["a plain arrow function", "() => 41 + 1", 42],
    ["a function body with top-level await and return", "const x = await math.add({ a: 2, b: 3 });\nreturn x + 1;", 6],
    ["a body ending in an expression", "const x = await math.add({ a: 2, b: 3 });\nx * 10", 50],
    ["a bare expression", "await math.add({ a: 10, b: 5 })", 15],
    ["an object literal expression", "{ ok: true }", { ok: true }],
    ["a fenced program", "```js\nasync () => 'fenced'\n```", "fenced"],
    [
      "a fenced TypeScript program",
      "```ts\ninterface P { n: number }\nconst p: P = { n: 7 };\nreturn p.n as number;\n```",
      7,
    ],
    ["TypeScript generics", "async (): Promise<number> => { const xs: Array<number> = [1, 2]; return xs.length }", 2],
  ])("runs %s", async (_label, program, expected) => {
    const result = await run(program);
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual(expected);
  });

  it("reports syntax errors with line and column in the model's source", async () => {
    const result = await run("const a = 1;\nconst b = ;");
    expect(result.error).toEqual({ kind: "exception", message: "SyntaxError: Unexpected token (line 2, column 11)" });
  });

  it("reports runtime errors with the line of the model's source", async () => {
    const result = await run("const a = 1;\nnull.x;");
    expect(result.error?.kind).toBe("exception");
    expect(result.error?.message).toMatch(/^TypeError: .*\(line 2\)$/);
  });

  it("exposes bindings as null-prototype globals whose member names are untrusted", async () => {
    const result = await run(
      "[Object.getPrototypeOf(math) === null, await math.__proto__(), await math.constructor(), await math['list-prs'](), Object.keys(math).length, Object.isFrozen(math)]",
    );
    expect(result.value).toEqual([true, "proto member", "constructor member", ["#1"], 8, true]);
  });

  it("turns a host rejection into a rejection carrying only the message", async () => {
    const result = await run(
      "try { await math.fail() } catch (e) { return [e instanceof Error, e.message, String(e.stack).includes('node:'), String(e.stack).includes('.ts')] }",
    );
    expect(result.value).toEqual([true, "no such repository", false, false]);
    expect((await run("try { await math.failWithString() } catch (e) { return e.message }")).value).toBe(
      "plain string failure",
    );
    const uncaught = await run("await math.fail()");
    expect(uncaught.error).toEqual({ kind: "exception", message: "Error: no such repository (line 1)" });
  });

  it("keeps value types across the boundary in both directions", async () => {
    const value = await run(`
      const sent = { d: new Date(5), m: new Map([["k", 1n]]), s: new Set([1]), u: new Uint8Array([1, 2, 255]),
        b: new Uint8Array([7]).buffer, n: NaN, i: -Infinity, z: -0, un: undefined, nested: [null, "x"] };
      const back = await math.echo(sent);
      return [back.d instanceof Date && back.d.getTime() === 5, back.m.get("k") === 1n, back.s.has(1),
        back.u instanceof Uint8Array && back.u[2] === 255, back.b instanceof ArrayBuffer && back.b.byteLength === 1,
        Number.isNaN(back.n), back.i === -Infinity, Object.is(back.z, -0), "un" in back && back.un === undefined, back];
    `);
    expect(value.error).toBeUndefined();
    const list = value.value as unknown[];
    expect(list.slice(0, 9)).toEqual([true, true, true, true, true, true, true, true, true]);
    const back = list[9] as Record<string, unknown>;
    expect(back.d).toEqual(new Date(5));
    expect(back.m).toEqual(new Map([["k", 1n]]));
    expect(back.u).toEqual(new Uint8Array([1, 2, 255]));
    expect(Object.is(back.z, -0)).toBe(true);
    expect(calls).toBeDefined();
  });

  it("passes decoded arguments to the host", async () => {
    calls.length = 0;
    await run("math.add({ a: 1, b: 2, when: new Date(0) })");
    expect(calls).toEqual([{ a: 1, b: 2, when: new Date(0) }]);
  });

  it("rejects arguments and host results that cannot cross, with a path, without corrupting the run", async () => {
    const args = await run("try { await math.echo({ user: { callback: () => 1 } }) } catch (e) { return e.message }");
    expect(args.value).toBe("math.echo arguments.user.callback: functions cannot cross the sandbox boundary");
    const back = await run("try { await math.callback() } catch (e) { return e.message + ' / still running' }");
    expect(back.value).toBe(
      "math.callback result.nested.fn: functions cannot cross the sandbox boundary / still running",
    );
  });

  it("rejects values nested too deeply with a short path, in either direction", async () => {
    const result = await run(
      "let o = [1]; for (let i = 0; i < 3000; i++) o = [o]; try { await math.echo(o) } catch (e) { return e.message }",
    );
    // Within 500 levels the codec's own bound applies; a small sandbox stack (in-process) may run out first.
    expect(result.value).toMatch(
      /^math\.echo arguments(\[0\]\[0\].*….*: values nested deeper than 500 levels|: values nested too deeply) cannot cross the sandbox boundary/,
    );
  });

  it("renders a completion value that cannot cross as a string", async () => {
    const result = await run("({ f() {}, n: 1 })");
    expect(result.error).toBeUndefined();
    expect(result.value).toMatch(
      /^\{"f":"\[Function: f\]","n":1\} \(the result was rendered as a string: result\.f: functions cannot cross/,
    );
  });

  it("captures console output in order, rendered readably, and caps it", async () => {
    const result = await run(`
      console.log("a", { x: [1, { y: 2 }] }, new Map([[1, "one"]]));
      console.info(1n, undefined, null); console.warn("careful"); console.error(new TypeError("bad")); console.debug([1, 2]);
      return 1`);
    expect(result.logs).toEqual([
      'a {"x":[1,{"y":2}]} {"Map(1)":[[1,"one"]]}',
      "1n undefined null",
      "[warn] careful",
      "[error] TypeError: bad",
      "[1,2]",
    ]);
    const flood = await run("for (let i = 0; i < 10000; i++) console.log('line ' + i); 'done'");
    expect(flood.value).toBe("done");
    expect(flood.logs.join("\n").length).toBeLessThan(800);
    expect(flood.logs.at(-1)).toMatch(/\[logs truncated: more than 500 characters\]$/);
  });

  it("offers no capability beyond the bindings and console", async () => {
    const result = await run(
      "[typeof process, typeof require, typeof fetch, typeof setTimeout, typeof setInterval, typeof WebAssembly, typeof XMLHttpRequest, typeof globalThis.std, typeof globalThis.os, typeof Atomics, typeof FinalizationRegistry]",
    );
    expect(result.value).toEqual(Array(11).fill("undefined"));
    const dynamicImport = await run(
      "try { await import('node:fs'); return 'imported' } catch (e) { return 'blocked' }",
    );
    expect(dynamicImport.value).toBe("blocked");
  });

  it("shares nothing between runs", async () => {
    await run("globalThis.leak = 1; Array.prototype.leak = 2; Math.random = () => 4;");
    const result = await run("[typeof leak, [].leak, Math.random() === 4]");
    expect(result.value).toEqual(["undefined", undefined, false]);
  });

  it("never lets jobs left by one run execute in the next", async () => {
    const first = await run(
      "(async () => { for (let i = 0; i < 50; i++) await null; console.log('late'); await math.fail() })(); return 1",
    );
    expect(first.value).toBe(1);
    const second = await run("await null; await null; 2");
    expect(second).toEqual({ value: 2, logs: [] });
  });

  it("freezes Date and seeds Math.random from the environment", async () => {
    const environment = { epochMs: Date.UTC(2024, 0, 2), randomSeed: "execution-1" };
    const program =
      "[Date.now(), new Date().getTime(), typeof Date(), new Date(5).getTime(), new Date() instanceof Date, Math.random(), Math.random()]";
    const first = await run(program, { environment });
    const second = await run(program, { environment });
    const other = await run(program, { environment: { ...environment, randomSeed: "execution-2" } });
    const values = first.value as unknown[];
    expect(values.slice(0, 5)).toEqual([environment.epochMs, environment.epochMs, "string", 5, true]);
    expect(second.value).toEqual(first.value);
    expect((other.value as unknown[]).slice(5)).not.toEqual(values.slice(5));
    const free = await run("Date.now()");
    expect(Math.abs((free.value as number) - Date.now())).toBeLessThan(60_000);
  });

  it("fails a never-settling program at once instead of waiting for the deadline", async () => {
    const result = await run("await new Promise(() => {})");
    expect(result.error?.kind).toBe("exception");
    expect(result.error?.message).toMatch(/never settle/);
  });

  it("refuses programs over the source budget", async () => {
    const small = new QuickJSExecutor({ isolation, maxSourceChars: 20 });
    const result = await small.run({ program: "1 + 1 // a long comment that is too long", bindings: [] });
    expect(result.error).toEqual({
      kind: "exception",
      message: expect.stringMatching(/limit is 20 \(maxSourceChars\)/) as unknown as string,
    });
    await small.dispose();
  });

  it("stops a program at its time budget, naming the budget", async () => {
    const quick = new QuickJSExecutor({ isolation, timeoutMs: 300 });
    const spin = await quick.run({ program: "while (true) {}", bindings: [] });
    expect(spin.error).toEqual({
      kind: "timeout",
      message: expect.stringContaining("300 ms (timeoutMs)") as unknown as string,
    });
    const slowHost = await quick.run({
      program: "await slow.wait(); return 'late'",
      bindings: [{ global: "slow", functions: { wait: () => new Promise((resolve) => setTimeout(resolve, 2_000)) } }],
    });
    expect(slowHost.error?.kind).toBe("timeout");
    expect((await quick.run({ program: "1", bindings: [] })).value).toBe(1);
    await quick.dispose();
  });

  it("aborts a run waiting on the host, and refuses a run already aborted", async () => {
    const controller = new AbortController();
    const pending = executor.run({
      program: "await slow.wait(); return 'late'",
      bindings: [{ global: "slow", functions: { wait: () => new Promise((resolve) => setTimeout(resolve, 5_000)) } }],
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    expect((await pending).error?.kind).toBe("abort");
    expect((await run("1", { signal: AbortSignal.abort() })).error?.kind).toBe("abort");
  });

  it("dispose stops in-flight runs (kind abort) instead of waiting for their deadline, then refuses runs", async () => {
    const local = new QuickJSExecutor({ isolation, timeoutMs: 60_000 });
    const other = new QuickJSExecutor({ isolation, timeoutMs: 60_000 });
    let finished = false;
    const wait = () => new Promise((resolve) => setTimeout(() => resolve("late"), 30_000).unref());
    const pending = local
      .run({ program: "await host.wait(); 'done'", bindings: [{ global: "host", functions: { wait } }] })
      .then((result) => {
        finished = true;
        return result;
      });
    const bystander = other.run({
      program: "await host.tick(); 'other'",
      bindings: [{ global: "host", functions: { tick: () => new Promise((r) => setTimeout(r, 300)) } }],
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await local.dispose();
    expect(finished).toBe(true);
    expect((await pending).error).toEqual({
      kind: "abort",
      message: "The run was stopped because its executor was disposed.",
    });
    expect((await local.run({ program: "1", bindings: [] })).error?.kind).toBe("worker-exit");
    // Disposing one executor never stops the runs of another (they share the substrate).
    expect((await bystander).value).toBe("other");
    await other.dispose();
  });

  it("`await using` disposes the executor at the end of its block", async () => {
    let escaped: QuickJSExecutor | undefined;
    {
      await using scoped = new QuickJSExecutor({ isolation });
      escaped = scoped;
      expect((await scoped.run({ program: "1 + 1", bindings: [] })).value).toBe(2);
    }
    expect((await escaped.run({ program: "1", bindings: [] })).error).toMatchObject({
      kind: "worker-exit",
      message: expect.stringContaining("has been disposed"),
    });
  });

  it("runs concurrent programs independently", async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, index) => run(`const v = await math.add({ a: ${index}, b: 1 }); v`)),
    );
    expect(results.map((result) => result.value)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe("QuickJSExecutor (worker-thread) hard limits", () => {
  it("aborts even a synchronous while (true) {} and keeps the host event loop free", async () => {
    const executor = new QuickJSExecutor({ timeoutMs: 10_000 });
    const controller = new AbortController();
    let ticks = 0;
    const interval = setInterval(() => ticks++, 10);
    const pending = executor.run({ program: "while (true) {}", bindings: [], signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort();
    const result = await pending;
    clearInterval(interval);
    expect(result.error).toEqual({ kind: "abort", message: "The run was aborted." });
    expect(ticks).toBeGreaterThan(5);
    expect((await executor.run({ program: "'after'", bindings: [] })).value).toBe("after");
    await executor.dispose();
  });

  it("stops a long C builtin by terminating the worker, keeping the logs written before, then replaces it", async () => {
    const executor = new QuickJSExecutor({ timeoutMs: 300, poolSize: 1 });
    const result = await executor.run({
      program: "console.log('before'); let o = {}; for (let i = 0; i < 1e5; i++) o = { o }; JSON.stringify(o)",
      bindings: [],
    });
    expect(result.error?.kind).toBe("timeout");
    expect(result.logs).toEqual(["before"]);
    expect((await executor.run({ program: "'fresh'", bindings: [] })).value).toBe("fresh");
    await executor.dispose();
  });
});

describe("QuickJSExecutor (in-process) dead substrate", () => {
  it("turns a host stack overflow into worker-exit and runs the next program on a fresh substrate", async () => {
    const executor = new QuickJSExecutor({ isolation: "in-process", maxStackBytes: 4 * 1024 * 1024 });
    const result = await executor.run({ program: "function f(n) { return f(n + 1) + 1 } f(0)", bindings: [] });
    expect(result.error?.kind).toBe("worker-exit");
    expect(result.error?.message).toMatch(/recurse less deeply/);
    expect((await executor.run({ program: "[1, 2].length", bindings: [] })).value).toBe(2);
    // The same overflow inside a host callback (encoding an argument, rendering a log) cannot be caught by the program.
    const bindings = [{ global: "host", functions: { echo: async (value: unknown) => value } }];
    const getter = "{ get x() { function f(n) { return f(n + 1) + 1 } return f(0) } }";
    for (const program of [
      `try { await host.echo(${getter}) } catch (e) { return 'caught' }`,
      `try { console.log(${getter}) } catch (e) { return 'caught' }`,
    ]) {
      const inCallback = await executor.run({ program, bindings });
      expect(inCallback.error?.kind).toBe("worker-exit");
      expect((await executor.run({ program: "'fresh'", bindings })).value).toBe("fresh");
    }
    await executor.dispose();
  });

  it("reports malformed requests as an exception naming the field", async () => {
    const executor = new QuickJSExecutor({ isolation: "in-process" });
    const result = await executor.run({ program: "1", bindings: [{ global: "", functions: {} }] });
    expect(result.error).toEqual({ kind: "exception", message: "bindings[0].global must be a non-empty string." });
    const environment = { epochMs: Number.NaN, randomSeed: "s" };
    expect((await executor.run({ program: "1", bindings: [], environment })).error?.message).toMatch(
      /^environment must be/,
    );
    expect((await executor.run(null as unknown as CodeRunRequest)).error?.kind).toBe("exception");
    await executor.dispose();
  });
});

describe("QuickJSExecutor unknown methods", () => {
  it("names the method, the closest one and the methods that exist; the namespace stays null-prototype and frozen", async () => {
    const executor = new QuickJSExecutor({ isolation: "in-process" });
    const functions = {
      list_issues: async () => [],
      get_issue: async () => ({}),
      ["__proto__"]: async () => "proto",
      constructor: async () => "ctor",
    };
    const bindings = [{ global: "github", functions }];
    const result = await executor.run({ program: "await github.lst_issues()", bindings });
    expect(result.error?.kind).toBe("exception");
    expect(result.error?.message).toContain(
      'TypeError: github.lst_issues is not a function: github has no method "lst_issues". Did you mean github.list_issues?',
    );
    expect(result.error?.message).toContain("its methods: list_issues, get_issue, __proto__, constructor");
    const shape = await executor.run({
      program:
        "[Object.getPrototypeOf(github) === null, Object.isFrozen(github), 'lst' in github, typeof github.then + typeof github.lst, " +
        "await github.__proto__(), await github.constructor(), Object.keys(github).length]",
      bindings,
    });
    expect(shape.value).toEqual([true, true, false, "undefinedundefined", "proto", "ctor", 4]);
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`method_${index}`, async () => index]));
    const listed = await executor.run({ program: "await big.nope()", bindings: [{ global: "big", functions: many }] });
    expect(listed.error?.message).toContain("method_19, … (50 in all)");
    await executor.dispose();
  });
});
