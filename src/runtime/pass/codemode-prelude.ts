/**
 * The sandbox half of the `codemode` global, as one line of statements placed before the program (so the
 * program's own line numbers are unchanged): the frozen `codemode` object (`search`, `describe`, `run`, `step`)
 * over the host namespace. `step`'s callback must run inside the sandbox, which a host binding cannot receive.
 * `run` evaluates a snippet's source (from the host) as an async function of `input` in this same run.
 */
import { MAX_STORED_MESSAGE_CHARS } from "../../shared/bounded-text.js";
import { HOST_NAMESPACE } from "../../shared/host-namespace.js";

/** One line of statements run in a function scope where `host` is the host namespace (every prelude's frame). */
export function overHost(statements: string[]): string {
  return ["(function () {", `var host = globalThis.${HOST_NAMESPACE};`, ...statements, "})();"].join(" ");
}

/** The prelude line defining `codemode` in the sandbox. */
export function codemodePrelude(): string {
  return overHost([
    "var api = Object.create(null);",
    "api.search = function (query) { return host.search(query); };",
    "api.describe = function (target) { return host.describe(target); };",
    "api.run = async function (name, input) {",
    "var got = await host.snippet(name); if (got.error !== undefined) return { error: got.error };",
    "return await (0, eval)(got.source)(input); };",
    // Cut in the sandbox too: an 8 MB message must reach the host (bounded again there), not be refused at the
    // sandbox's value bound and leave the step's row unfinished.
    "var S = String;",
    "var messageOf = function (error) { var text = S(error && error.message !== undefined ? error.message : error);",
    `return text.length > ${MAX_STORED_MESSAGE_CHARS} ? text.slice(0, ${MAX_STORED_MESSAGE_CHARS}) : text; };`,
    "api.step = async function (name, fn) {",
    "if (typeof fn !== 'function') throw new TypeError('codemode.step(name, fn): fn must be a function');",
    "var begun = await host.stepBegin(name);",
    "if (begun.replayed) { if (begun.failed) throw new Error(begun.error); return begun.value; }",
    "var value;",
    "try { value = await fn(); } catch (error) { await host.stepFail({ seq: begun.seq, error: messageOf(error) }); throw error; }",
    "try { await host.stepEnd({ seq: begun.seq, value: value }); }",
    "catch (error) { await host.stepFail({ seq: begun.seq, error: messageOf(error), unserializable: true }); throw error; }",
    "return value;",
    "};",
    "Object.defineProperty(globalThis, 'codemode', " +
      "{ value: Object.freeze(api), enumerable: false, writable: false, configurable: false });",
  ]);
}
