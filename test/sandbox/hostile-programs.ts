/**
 * The hostile corpus: programs that try to hang, exhaust, crash or escape the sandbox, with the
 * outcome each must produce. Shared by the corpus test and the benchmark's stall measurements.
 */
import type { CodeRunResult, ExecutorFailureKind } from "../../src/sandbox/types.js";

/** One hostile program and what must happen. */
export interface HostileProgram {
  name: string;
  program: string;
  /** Expected failure kind(s); `"completed"` when the run must succeed. */
  expect: ExecutorFailureKind | "completed" | Array<ExecutorFailureKind | "completed">;
  /** Extra assertion on the result (throws on mismatch). */
  check?: (result: CodeRunResult) => void;
}

function assert(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

/** The corpus. Bindings: `host.echo(x)`, `host.ok()`, `host.never()` (never settles). */
export const HOSTILE_PROGRAMS: HostileProgram[] = [
  // Hangs the interrupt handler must stop.
  { name: "while (true)", program: "while (true) {}", expect: "timeout" },
  {
    name: "loop swallowing exceptions",
    program: "for (;;) { try { throw new Error('x') } catch {} }",
    expect: "timeout",
  },
  {
    name: "loop in finally after a loop",
    program: "try { while (true) {} } finally { while (true) {} }",
    expect: "timeout",
  },
  {
    name: "loop in finally after a throw",
    program: "try { throw new Error('x') } finally { for (;;) {} }",
    expect: "timeout",
  },
  {
    name: "catch that retries forever",
    program: "const f = () => { try { f() } catch { f() } }; f()",
    expect: ["timeout", "exception"],
  },
  { name: "loop after an await", program: "await host.ok(); while (true) {}", expect: "timeout" },
  {
    name: "loop in a detached promise job",
    program: "Promise.resolve().then(() => { while (true) {} }); return 1",
    expect: "timeout",
  },
  {
    name: "loop in a detached async function",
    program: "(async () => { await null; await null; for (;;) {} })(); await host.ok(); await host.ok(); return 2",
    expect: "timeout",
  },
  { name: "catastrophic regex", program: "/^(a+)+$/.test('a'.repeat(40) + 'b')", expect: "timeout" },
  {
    name: "sort with a slow comparator",
    program:
      "Array.from({ length: 1e5 }, (_, i) => -i).sort((a, b) => { for (let i = 0; i < 1e4; i++); return a - b })",
    expect: "timeout",
  },
  {
    name: "promise-job flood",
    program: "function f() { Promise.resolve().then(f) } f(); await new Promise(() => {})",
    expect: "timeout",
  },
  {
    name: "async recursion flood",
    program: "async function f() { await null; return f() } await f()",
    expect: ["timeout", "worker-exit"],
  },
  { name: "getter that spins during result encoding", program: "({ get x() { while (true) {} } })", expect: "timeout" },
  {
    name: "getter that spins during console rendering",
    program: "console.log({ get x() { for (;;) {} } })",
    expect: "timeout",
  },
  { name: "host promise that never settles", program: "await host.never()", expect: "timeout" },
  {
    name: "deep JSON.stringify (long C builtin)",
    program: "let o = {}; for (let i = 0; i < 1e5; i++) o = { o }; JSON.stringify(o)",
    expect: ["timeout", "exception"],
  },
  // Memory.
  {
    name: "memory bomb: 1 MB strings",
    program: "const a = []; for (;;) a.push('x'.repeat(1e6) + a.length)",
    expect: "worker-exit",
    check: (r) => assert(/memory/.test(r.error?.message ?? ""), "names memory"),
  },
  {
    name: "memory bomb: doubling string",
    program: "let s = 'x'; for (;;) s += s",
    expect: ["worker-exit", "exception"],
  },
  {
    name: "memory bomb: small objects",
    program: "const a = []; for (let i = 0; ; i++) a.push({ i, o: [i] })",
    expect: ["worker-exit", "timeout"],
  },
  {
    name: "memory bomb: huge ArrayBuffer",
    program: "new Uint8Array(2 ** 30).length",
    expect: ["worker-exit", "exception"],
  },
  {
    name: "memory bomb: Map growth",
    program: "const m = new Map(); for (let i = 0; ; i++) m.set(i, 'v' + i)",
    expect: ["worker-exit", "timeout"],
  },
  {
    name: "out-of-memory caught by the program",
    program: "try { const a = []; for (;;) a.push('x'.repeat(1e6) + a.length) } catch (e) { return 'survived' }",
    expect: ["completed", "worker-exit"],
  },
  // Deep recursion.
  {
    name: "deep recursion",
    program: "function f() { return f() + 1 } f()",
    expect: "exception",
    check: (r) => assert(/stack overflow/.test(r.error?.message ?? ""), "stack overflow"),
  },
  {
    name: "recursion through a Proxy",
    program: "const p = new Proxy({}, { get: (t, k) => p[k] }); p.x",
    expect: "exception",
  },
  {
    name: "recursion through toString",
    program: "const o = { toString() { return String(o) } }; String(o)",
    expect: "exception",
  },
  {
    name: "deep array result",
    program: "let a = []; for (let i = 0; i < 1e5; i++) a = [a]; a",
    expect: ["completed", "exception"],
  },
  {
    name: "blocking on Atomics.wait",
    program: "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)",
    expect: "exception",
  },
  // Never settles.
  { name: "never-settling promise", program: "await new Promise(() => {})", expect: "exception" },
  // Reaching for host objects.
  {
    name: "Function constructor for the global object",
    program: "const g = Function('return this')(); [typeof g.process, typeof g.require, typeof g.global]",
    expect: "completed",
    check: (r) => assert(JSON.stringify(r.value) === '["undefined","undefined","undefined"]', "no host globals"),
  },
  {
    name: "binding constructor chain",
    program: "host.echo.constructor('return typeof process + typeof require')()",
    expect: "completed",
    check: (r) => assert(r.value === "undefinedundefined", "no host through a binding"),
  },
  {
    name: "async function constructor",
    program: "await (async () => {}).constructor('return typeof globalThis.process')()",
    expect: "completed",
    check: (r) => assert(r.value === "undefined", "no process"),
  },
  {
    name: "indirect eval global scan",
    program:
      "Object.getOwnPropertyNames((0, eval)('this')).filter((n) => /process|require|module|fetch|host[A-Z]/.test(n))",
    expect: "completed",
    check: (r) => assert(JSON.stringify(r.value) === "[]", "no hidden host names"),
  },
  {
    name: "prototype pollution stays inside",
    program: "Object.prototype.polluted = 'yes'; Array.prototype.map = null; ({}).polluted",
    expect: "completed",
    check: () => assert(({} as Record<string, unknown>).polluted === undefined, "host prototype untouched"),
  },
  {
    name: "tampering with JSON before a call",
    program: 'JSON.stringify = () => \'{"$":"nope"}\'; JSON.parse = () => 666; await host.echo({ n: 1 })',
    expect: "completed",
    check: (r) => assert(JSON.stringify(r.value) === '{"n":1}', "bridge unaffected"),
  },
  {
    name: "tampering with a binding namespace",
    program:
      "'use strict'; try { host.echo = null } catch (e) { return [e instanceof TypeError, typeof host.echo, Object.isFrozen(host)] }",
    expect: "completed",
    check: (r) => assert(JSON.stringify(r.value) === '[true,"function",true]', "namespace frozen"),
  },
  {
    name: "result that looks like a codec tag",
    program: "({ $: 'bytes', v: '!!!' })",
    expect: "completed",
    check: (r) => assert(JSON.stringify(r.value) === '{"$":"bytes","v":"!!!"}', "escaped"),
  },
  {
    name: "stack trace inspection",
    program: "String(new Error('x').stack)",
    expect: "completed",
    check: (r) => assert(!/node:|\.ts|internal/.test(String(r.value)), "no host frames"),
  },
  // Throwing non-Errors.
  {
    name: "throw a string",
    program: "throw 'boom'",
    expect: "exception",
    check: (r) => assert(r.error?.message === 'Uncaught "boom"', "renders string"),
  },
  {
    name: "throw an object",
    program: "throw { code: 42 }",
    expect: "exception",
    check: (r) => assert(r.error?.message === 'Uncaught {"code":42}', "renders object"),
  },
  { name: "throw null", program: "throw null", expect: "exception" },
  { name: "throw a symbol", program: "throw Symbol('s')", expect: "exception" },
  {
    name: "throw a hostile Proxy",
    program: "throw new Proxy({}, { get() { throw 1 }, ownKeys() { throw 2 }, getPrototypeOf() { throw 3 } })",
    expect: "exception",
  },
  { name: "reject with undefined", program: "await Promise.reject(undefined)", expect: "exception" },
  // Huge output.
  {
    name: "huge logs",
    program: "for (let i = 0; i < 2e4; i++) console.log('line ' + i + ' ' + 'x'.repeat(100)); 'done'",
    expect: "completed",
    check: (r) => assert(r.logs.join("").length < 70_000, "logs capped"),
  },
  {
    name: "huge single log line",
    program: "console.log('y'.repeat(5e6)); 'done'",
    expect: "completed",
    check: (r) => assert(r.logs.join("").length < 70_000, "line capped"),
  },
  {
    name: "huge string result",
    program: "'x'.repeat(6e6)",
    expect: "exception",
    check: (r) => assert(/6,000,002 characters.*maxValueChars/.test(r.error?.message ?? ""), "names the bound"),
  },
  // Values the host would decode on its event loop: refused where they are encoded (issue 14, defect 1).
  {
    name: "BigInt arguments after replacing String",
    program: "String = () => '9'.repeat(3e6); await host.echo(10n ** 5000n)",
    expect: "exception",
    check: (r) => assert(/BigInt values over about 4,000 digits/.test(r.error?.message ?? ""), "bigint bound"),
  },
  {
    name: "string arguments of 10 MB",
    program: "const s = 'x'.repeat(1e7); await Promise.all(Array.from({ length: 150 }, () => host.echo(s)))",
    expect: "exception",
    check: (r) =>
      assert(/host\.echo arguments: would be 10,000,002 characters/.test(r.error?.message ?? ""), "argument bound"),
  },
  {
    name: "argument object of 150,000 keys",
    program: "const o = {}; for (let i = 0; i < 1.5e5; i++) o['k' + i] = i; await host.echo(o)",
    expect: "exception",
    check: (r) => assert(/maxValueChars/.test(r.error?.message ?? ""), "argument bound"),
  },
  {
    name: "result object of 300,000 keys",
    program: "const o = {}; for (let i = 0; i < 3e5; i++) o['k' + i] = i; o",
    expect: ["exception", "worker-exit", "completed"],
    check: (r) =>
      assert(
        r.error?.kind !== "exception" ||
          /The program's result would be [\d,]+ characters once encoded, over the limit of 4,000,000/.test(
            r.error.message,
          ),
        "result bound",
      ),
  },
  {
    name: "too much in flight",
    program: "const s = 'x'.repeat(9e5); await Promise.all(Array.from({ length: 10 }, () => host.echo(s)))",
    expect: "exception",
    check: (r) => assert(/Too much data in flight/.test(r.error?.message ?? ""), "in-flight bound"),
  },
  {
    name: "unknown method",
    program: "await host.ech({})",
    expect: "exception",
    check: (r) =>
      assert(/host\.ech is not a function.*Did you mean host\.echo\?/.test(r.error?.message ?? ""), "names the method"),
  },
  {
    name: "huge array result",
    program: "Array.from({ length: 3e5 }, (_, i) => ({ i }))",
    expect: ["completed", "worker-exit"],
  },
];
