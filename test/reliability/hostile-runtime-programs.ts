/**
 * Hostile programs aimed at the runtime's surface rather than the bare
 * executor (whose corpus is `test/sandbox/hostile-programs.ts`): the
 * `codemode` prelude, the connector namespaces, the host namespace, the codec
 * at the journal boundary. Bindings: `svc` of `svcConnector()`.
 */
import type { ExecutionDetail } from "../../src/runtime/types.js";

/** One hostile program, the statuses/kinds it may end with, and a check of the journal. */
export interface HostileRuntimeProgram {
  name: string;
  code: string;
  /** Allowed `status` or `error:kind` outcomes. */
  expect: string[];
  /** Extra check of the execution's journal (throws on mismatch). */
  check?: (detail: ExecutionDetail) => void;
}

function assert(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

const noCalls = (detail: ExecutionDetail): void =>
  assert(detail.calls.length === 0, `expected no journaled call, got ${detail.calls.length}`);
const honestRows = (detail: ExecutionDetail): void => {
  for (const call of detail.calls) {
    if (call.status !== "applied" || call.replay !== "record") continue;
    const args = call.args as { n: number; k: unknown };
    assert(
      JSON.stringify(call.result) === JSON.stringify({ d: args.n * 2, k: args.k }),
      `row #${call.seq} holds ${JSON.stringify(call.result)}`,
    );
  }
};

const boundedRows = (detail: ExecutionDetail): void => {
  for (const call of detail.calls) {
    assert(call.method.length <= 200, `row #${call.seq} has a ${call.method.length}-character name`);
    assert((call.error?.length ?? 0) <= 10_000, `row #${call.seq} has a ${call.error?.length}-character error`);
  }
  assert((detail.error?.length ?? 0) <= 10_000, `the execution has a ${detail.error?.length}-character error`);
};

/** The runtime-level corpus. */
export const HOSTILE_RUNTIME_PROGRAMS: HostileRuntimeProgram[] = [
  {
    name: "overwrite the codemode global",
    code: "async () => { try { codemode = null; } catch {} try { delete globalThis.codemode; } catch {} return typeof codemode.step; }",
    expect: ["completed"],
  },
  {
    name: "monkey-patch a connector method, then call it",
    code: "async () => { try { svc.plain = async () => ({ d: 999, k: 'forged' }); } catch {} return svc.plain({ n: 1, k: 'a' }); }",
    expect: ["completed", "error:exception"],
    check: honestRows,
  },
  {
    name: "freeze-breaking defineProperty on a namespace",
    code: "async () => { try { Object.defineProperty(svc, 'rev', { value: async () => 1 }); } catch {} return svc.rev({ n: 2, k: 'b' }); }",
    expect: ["completed", "error:exception"],
    check: honestRows,
  },
  {
    name: "prototype pollution before a call (toJSON, then)",
    code: "async () => { Object.prototype.toJSON = () => 'pwned'; Object.prototype.then = undefined; return svc.plain({ n: 3, k: 'c' }); }",
    expect: ["completed", "error:exception"],
    check: honestRows,
  },
  {
    name: "thenable result poisoning",
    code: "async () => { Object.prototype.then = function (r) { r(42); }; return 1; }",
    expect: ["completed", "error:exception"],
  },
  {
    name: "arguments over the journal limit",
    code: "async () => svc.plain({ n: 1, k: 'x'.repeat(1_100_000) })",
    expect: ["error:limit"],
    check: noCalls,
  },
  {
    name: "a getter in the arguments that throws",
    code: "async () => svc.plain({ n: 1, get k() { throw new Error('boom'); } })",
    expect: ["error:exception", "completed"],
    check: noCalls,
  },
  {
    name: "cyclic arguments",
    code: "async () => { const a = { n: 1 }; a.k = a; return svc.plain(a); }",
    expect: ["error:exception", "error:limit"],
    check: noCalls,
  },
  {
    name: "a symbol and a function in the arguments",
    code: "async () => svc.plain({ n: 1, k: [Symbol('s'), () => 1] })",
    expect: ["error:exception", "error:limit", "completed"],
    check: honestRows,
  },
  {
    name: "300 calls at once (several journal statements per flush)",
    code: "async () => (await Promise.all(Array.from({ length: 300 }, (_, i) => svc.plain({ n: i % 10, k: 'c' + i })))).length",
    expect: ["completed"],
    check: (detail) => assert(detail.calls.length === 300, `${detail.calls.length} rows`),
  },
  {
    name: "bogus host namespace calls",
    code: "async () => { const h = globalThis.__codemode_host; const out = []; for (const f of [() => h.stepBegin(123), () => h.stepEnd({ seq: 99, value: 1 }), () => h.stepFail({ seq: -1, error: 'x' }), () => h.snippet({ toString() { return 'x'; } })]) { try { out.push(JSON.stringify(await f())); } catch (e) { out.push('refused'); } } return out; }",
    expect: ["completed"],
    check: noCalls,
  },
  {
    name: "a step whose callback calls a gated method (pause inside a step)",
    code: "async () => codemode.step('s', async () => (await svc.gated({ n: 1, k: 'g' })).d)",
    expect: ["paused"],
  },
  {
    name: "swallow the pause and keep calling",
    code: "async () => { try { await svc.gated({ n: 1, k: 'g' }); } catch {} const after = []; for (let i = 0; i < 5; i++) { try { await svc.rev({ n: i, k: 'r' + i }); after.push('ran'); } catch { after.push('blocked'); } } return after; }",
    expect: ["paused"],
    check: (detail) =>
      assert(
        detail.calls.every((call) => call.method === "gated"),
        "a call after the pause was journaled",
      ),
  },
  // Issue 14, defect 6: labels and messages the program controls are bounded in the journal.
  {
    name: "an 8 MB step name",
    code: "async () => { try { await codemode.step('n'.repeat(8 * 1024 * 1024), () => 1); return 'ran'; } catch (e) { return e.message.length; } }",
    expect: ["completed"],
    check: noCalls,
  },
  {
    name: "a step that throws an 8 MB message",
    code: "async () => codemode.step('thrower', () => { throw new Error('m'.repeat(8 * 1024 * 1024)); })",
    expect: ["error:exception"],
    check: boundedRows,
  },
  {
    name: "stepFail with an 8 MB message through the host namespace",
    code: "async () => { const h = globalThis.__codemode_host; const b = await h.stepBegin('forge'); await h.stepFail({ seq: b.seq, error: 'e'.repeat(8 * 1024 * 1024) }); return 1; }",
    expect: ["error:exception"],
    check: boundedRows,
  }, // refused at the sandbox's value bound
  // Issue 14, defect 7: a step that a pause interrupted is never recorded as finished.
  {
    name: "catch the pause inside a step and return 'later'",
    code: "async () => codemode.step('pay', async () => { try { return await svc.gated({ n: 1, k: 'g' }); } catch { return 'later'; } })",
    expect: ["paused"],
    check: (detail) =>
      assert(
        !detail.calls.some((call) => call.connector === "codemode" && call.status === "applied"),
        "the interrupted step was recorded as finished",
      ),
  },
  {
    name: "eval a snippet source that does not exist",
    code: "async () => { const r = await codemode.run('nope', {}); return r.error.includes('No snippet'); }",
    expect: ["completed"],
  },
];
