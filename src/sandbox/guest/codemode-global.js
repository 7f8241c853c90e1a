// @ts-check
/**
 * The sandbox half of the durable runtime's `codemode` global: a frozen object (`search`, `describe`, `run`,
 * `step`) over the host namespace. `step`'s callback must run inside the sandbox, which a host binding cannot
 * receive; `run` evaluates a snippet's source (from the host) as an async function of `input` in this same run.
 * The runtime passes it as a lazy global (`CodeRunRequest.lazyGlobals`): compiled only in a run that reads
 * `codemode`.
 */
import { MAX_STORED_MESSAGE_CHARS } from "../../shared/bounded-text.js";
import { HOST_NAMESPACE } from "../../shared/host-namespace.js";

/**
 * The host functions behind `codemode` (`step-policy.ts`, `pass-bindings.ts`).
 *
 * @typedef {object} CodemodeHost
 * @property {(query: unknown) => Promise<unknown>} search
 * @property {(target: unknown) => Promise<unknown>} describe
 * @property {(name: unknown) => Promise<{ source: string, error?: undefined } | { error: string }>} snippet
 * @property {(name: unknown) => Promise<{ replayed: true, failed?: boolean, error?: string, value?: unknown } | { replayed: false, seq: number }>} stepBegin
 * @property {(record: { seq: number, value: unknown }) => Promise<unknown>} stepEnd
 * @property {(record: { seq: number, error: string, unserializable?: boolean }) => Promise<unknown>} stepFail
 */

/**
 * @param {typeof globalThis} global the run's global object
 */
export function createCodemodeGlobal(global) {
  const host = /** @type {CodemodeHost} */ (/** @type {Record<string, unknown>} */ (global)[HOST_NAMESPACE]);
  const toText = global.String;

  /**
   * A failure's message, cut in the sandbox too: an 8 MB message must reach the host (bounded again there), not be
   * refused at the sandbox's value bound and leave the step's row unfinished.
   *
   * @param {unknown} error
   * @returns {string}
   */
  const messageOf = (error) => {
    const message = error && /** @type {{ message?: unknown }} */ (error).message;
    const text = toText(message !== undefined ? message : error);
    return text.length > MAX_STORED_MESSAGE_CHARS ? text.slice(0, MAX_STORED_MESSAGE_CHARS) : text;
  };

  return global.Object.freeze({
    __proto__: null,
    /** @param {unknown} query */
    search: (query) => host.search(query),
    /** @param {unknown} target */
    describe: (target) => host.describe(target),
    /**
     * Runs a saved snippet inside this run; its calls join this journal.
     *
     * @param {unknown} name
     * @param {unknown} input
     */
    async run(name, input) {
      const got = await host.snippet(name);
      if (got.error !== undefined) return { error: got.error };
      // An indirect eval: the snippet sees the globals, not this function's scope.
      const evaluate = global.eval;
      return await evaluate(got.source)(input);
    },
    /**
     * A journaled step: on replay, the recorded value (or failure) without calling `fn` again.
     *
     * @param {unknown} name
     * @param {() => unknown} fn
     */
    async step(name, fn) {
      if (typeof fn !== "function") throw new TypeError("codemode.step(name, fn): fn must be a function");
      const begun = await host.stepBegin(name);
      if (begun.replayed) {
        if (begun.failed) throw new Error(begun.error);
        return begun.value;
      }
      let value;
      try {
        value = await fn();
      } catch (error) {
        await host.stepFail({ seq: begun.seq, error: messageOf(error) });
        throw error;
      }
      try {
        await host.stepEnd({ seq: begun.seq, value });
      } catch (error) {
        await host.stepFail({ seq: begun.seq, error: messageOf(error), unserializable: true });
        throw error;
      }
      return value;
    },
  });
}
