/**
 * `CodeRunRequest.lazyGlobals` (the runtime's `codemode` and `fetch`): compiled at the first read, and as fixed as the
 * frozen global they stand for, for every isolation.
 */
import { afterAll, describe, expect, it } from "vitest";
import { QuickJSExecutor } from "../../../src/sandbox/quickjs-executor.js";

// A factory that counts how often it was called (on the global it is given), returning a frozen object.
const COUNTED = "(function (global) { global.made = (global.made || 0) + 1; return Object.freeze({ ok: 1 }); })";

for (const isolation of ["in-process", "worker-thread"] as const) {
  describe(`lazy globals (${isolation})`, () => {
    const executor = new QuickJSExecutor({ isolation, poolSize: 1 });
    afterAll(() => executor.dispose());
    const run = (program: string) => executor.run({ program, bindings: [], lazyGlobals: { api: COUNTED } });

    it("compile nothing until read, then once: every read is the same value", async () => {
      expect((await run("typeof made")).value).toBe("undefined");
      expect((await run("[api === api, api.ok, made]")).value).toEqual([true, 1, 1]);
    });

    it("cannot be deleted, assigned or redefined, before the first read or after", async () => {
      for (const program of [
        "async () => { try { delete globalThis.api; } catch {} try { api = null; } catch {} return [typeof api, api.ok]; }",
        "async () => { try { Object.defineProperty(globalThis, 'api', { value: 2 }); } catch {} return [typeof api, api.ok]; }",
        "async () => { const first = api; try { delete globalThis.api; } catch {} try { globalThis.api = 3; } catch {} return [typeof api, api === first]; }",
      ]) {
        const result = await run(program);
        expect(result.error, program).toBeUndefined();
        expect((result.value as unknown[])[0], program).toBe("object");
        expect((result.value as unknown[])[1], program).toBeTruthy();
      }
    });
  });
}
