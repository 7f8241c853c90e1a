/**
 * The bindings of one pass: a namespace per connector whose methods go
 * through the journal, and the host namespace behind the `codemode` global
 * (`search`, `describe`, `run`, `step`).
 */
import { OUTBOUND_METHOD } from "../../connectors/outbound-fetch.js";
import { GUEST_SOURCES } from "../../sandbox/guest-sources.js";
import { normalizeProgram } from "../../sandbox/program/normalize-program.js";
import type { CodeBindingNamespace, CodeRunRequest } from "../../sandbox/types.js";
import { quoted } from "../../shared/bounded-text.js";
import { HOST_NAMESPACE } from "../../shared/host-namespace.js";
import { connectorCall } from "./connector-policy.js";
import { reportProgress } from "./progress-events.js";
import type { PassContext } from "./pass-context.js";
import type { ResolvedModules } from "../journal/module-record.js";
import { stepHostFunctions } from "./step-policy.js";

/**
 * The sandbox halves of the `codemode` global and of the opt-in `fetch` (`src/sandbox/guest/codemode-global.js`,
 * `fetch-global.js`): lazy globals, compiled only in a pass whose program reads them.
 */
const CODEMODE_GLOBAL = Object.freeze({ codemode: GUEST_SOURCES.codemodeGlobal });
const CODEMODE_AND_FETCH_GLOBALS = Object.freeze({ ...CODEMODE_GLOBAL, fetch: GUEST_SOURCES.fetchGlobal });

/**
 * Builds the run request for the pass's program: the program as the model
 * wrote it (the executor normalises it, once), `codemode` (and `fetch`), and the modules it may import (the
 * execution's pinned ones).
 */
export function passRequest(pass: PassContext, program: string, modules: ResolvedModules): CodeRunRequest {
  return {
    program,
    // `input` is undefined at the top level, so code saved as a snippet reads `input` the same way in both places.
    prelude: "var input = undefined;",
    lazyGlobals: pass.deps.outbound === undefined ? CODEMODE_GLOBAL : CODEMODE_AND_FETCH_GLOBALS,
    bindings: passBindings(pass),
    signal: pass.abort.signal,
    environment: { epochMs: pass.execution.createdAt, randomSeed: pass.execution.executionId },
    ...(Object.keys(modules.sources).length === 0 ? {} : { modules: modules.sources }),
    // One owner's runs waiting on slow connectors must not hold every sandbox worker.
    ...(pass.execution.scope === undefined ? {} : { fairnessKey: pass.execution.scope }),
    ...(pass.options.onProgress === undefined ? {} : { onLog: (line: string) => reportLog(pass, line) }),
  };
}

function reportLog(pass: PassContext, line: string): void {
  reportProgress(pass.options.onProgress, { type: "log", executionId: pass.execution.executionId, line });
}

function passBindings(pass: PassContext): CodeBindingNamespace[] {
  const namespaces: CodeBindingNamespace[] = [];
  const { outbound } = pass.deps;
  for (const [connector, definition] of Object.entries(pass.deps.namespaces)) {
    const functions: CodeBindingNamespace["functions"] = Object.create(null) as CodeBindingNamespace["functions"];
    for (const [method, methodDefinition] of Object.entries(definition.methods)) {
      functions[method] = (args) => connectorCall(pass, { connector, method, definition: methodDefinition }, args);
    }
    // A namespace without methods says why (a proxied server that did not start describes itself so).
    const unavailable = Object.keys(functions).length === 0 ? definition.description : undefined;
    namespaces.push({ global: connector, functions, ...(unavailable === undefined ? {} : { unavailable }) });
  }
  namespaces.push({
    global: HOST_NAMESPACE,
    functions: {
      ...stepHostFunctions(pass),
      search: (query) => lookup(pass, "search", query, pass.deps.search),
      describe: (target) => lookup(pass, "describe", target, pass.deps.describe),
      snippet: (name) => snippetSource(pass, name),
      ...(outbound === undefined
        ? {}
        : {
            fetch: (args: unknown) => {
              const definition = outbound.connector.methods[OUTBOUND_METHOD]!;
              return connectorCall(pass, { connector: outbound.name, method: OUTBOUND_METHOD, definition }, args);
            },
          }),
    },
  });
  return namespaces;
}

/** `codemode.search` / `describe` (in its span when the pass is traced). */
function lookup(
  pass: PassContext,
  kind: "search" | "describe",
  argument: unknown,
  run: (text: string) => unknown,
): Promise<unknown> {
  const admitted = pass.budget.admitLookup(kind);
  if (!admitted.ok) return Promise.reject(pass.failWith({ kind: "limit", error: admitted.error }));
  const answer = async () => run(textArgument(argument));
  return pass.trace === undefined
    ? answer()
    : pass.trace.lookup(kind, typeof argument === "string" ? argument : "", answer);
}

/**
 * The text argument of `codemode.search` / `describe` (anything else reads as ""). An argument the sandbox refused
 * as too large arrives as a stand-in whose every use throws the limit error: reading it rejects the call with that
 * message instead of searching for "".
 */
function textArgument(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "object" && value !== null) Reflect.ownKeys(value);
  return "";
}

/**
 * Host half of `codemode.run(name, input)`: the snippet's program as the source
 * of an async function of `input`, which the prelude evaluates and calls inside
 * the same sandbox run. Its calls therefore join this journal (same bindings,
 * same sequence numbers) and no second executor run is needed (a nested run
 * could wait forever for a busy worker pool). A missing snippet or a missing
 * recorded connector resolves to `{ error }`.
 */
async function snippetSource(pass: PassContext, name: unknown): Promise<{ source: string } | { error: string }> {
  const snippet = pass.deps.snippets.find((candidate) => candidate.name === name);
  if (snippet === undefined) {
    const names = pass.deps.snippets.map((candidate) => candidate.name);
    return {
      error: `No snippet named ${quoted(name)}. Saved snippets: ${names.length > 0 ? names.join(", ") : "(none)"}.`,
    };
  }
  const missing = snippet.connectors.filter((connector) => !Object.hasOwn(pass.deps.connectors, connector));
  if (missing.length > 0) {
    return {
      error: `Snippet "${snippet.name}" needs connector(s) ${missing.join(", ")}, which this runtime does not have.`,
    };
  }
  const normalized = await normalizeProgram(snippet.code);
  if (!normalized.ok) return { error: `Snippet "${snippet.name}" does not compile: ${normalized.message}` };
  return { source: `(async function (input) {\nreturn await ${normalized.script};\n})` };
}
