/**
 * The bindings of one pass: a namespace per connector whose methods go
 * through the journal, and the host namespace behind the `codemode` global
 * (`search`, `describe`, `run`, `step`).
 */
import { normalizeProgram } from "../sandbox/normalize-program.js";
import type { CodeBindingNamespace, CodeRunRequest } from "../sandbox/types.js";
import { journaledCall } from "./connector-call.js";
import type { PassContext } from "./pass-context.js";
import { codemodePrelude, HOST_NAMESPACE, stepHostFunctions } from "./step-binding.js";

/** How deep `codemode.run` may nest (a snippet running a snippet…), against runaway recursion. */
export const MAX_SNIPPET_DEPTH = 8;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A JSON literal for `input` when the value survives JSON unchanged; otherwise undefined. */
function jsonLiteral(value: unknown): string | undefined {
  if (value === undefined) return "undefined";
  try {
    const text = JSON.stringify(value);
    return text !== undefined && JSON.stringify(JSON.parse(text)) === text && isPlainJson(value) ? text : undefined;
  } catch {
    return undefined;
  }
}

function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return (prototype === Object.prototype || prototype === null) && Object.values(value as object).every(isPlainJson);
}

/**
 * Builds the run request for `program` in `pass` (the top-level program, or a
 * snippet at `depth`). The program is normalised first (any of its forms, TS or
 * JS) and becomes a function body whose first line is the `codemode` prelude.
 */
export async function passRequest(pass: PassContext, program: string, depth = 0, input?: unknown): Promise<CodeRunRequest | { error: string }> {
  const inputJson = depth === 0 ? undefined : jsonLiteral(input);
  if (depth > 0 && inputJson === undefined) {
    return { error: "Snippet input must be plain JSON (objects, arrays, strings, finite numbers, booleans, null)." };
  }
  const normalized = await normalizeProgram(program);
  if (!normalized.ok) return { error: normalized.message };
  return {
    program: `${codemodePrelude(inputJson)} return await ${normalized.script};`,
    bindings: passBindings(pass, depth),
    signal: pass.abort.signal,
    environment: { epochMs: pass.execution.createdAt, randomSeed: pass.execution.executionId },
  };
}

function passBindings(pass: PassContext, depth: number): CodeBindingNamespace[] {
  const namespaces: CodeBindingNamespace[] = [];
  for (const [connector, definition] of Object.entries(pass.deps.connectors)) {
    const functions: CodeBindingNamespace["functions"] = Object.create(null) as CodeBindingNamespace["functions"];
    for (const [method, methodDefinition] of Object.entries(definition.methods)) {
      functions[method] = (args) => journaledCall(pass, { connector, method, definition: methodDefinition }, args);
    }
    namespaces.push({ global: connector, functions });
  }
  namespaces.push({
    global: HOST_NAMESPACE,
    functions: {
      ...stepHostFunctions(pass),
      search: async (query) => pass.deps.search(typeof query === "string" ? query : ""),
      describe: async (target) => pass.deps.describe(typeof target === "string" ? target : ""),
      run: (args) => runSnippet(pass, args as { name: unknown; input: unknown }, depth + 1),
    },
  });
  return namespaces;
}

/** `codemode.run(name, input)`: runs a saved snippet inside this pass; its calls join this journal. */
async function runSnippet(pass: PassContext, { name, input }: { name: unknown; input: unknown }, depth: number): Promise<unknown> {
  const snippet = pass.deps.snippets.find((candidate) => candidate.name === name);
  if (snippet === undefined) {
    const names = pass.deps.snippets.map((candidate) => candidate.name);
    return { error: `No snippet named ${JSON.stringify(name)}. Saved snippets: ${names.length > 0 ? names.join(", ") : "(none)"}.` };
  }
  const missing = snippet.connectors.filter((connector) => !Object.prototype.hasOwnProperty.call(pass.deps.connectors, connector));
  if (missing.length > 0) {
    return { error: `Snippet "${snippet.name}" needs connector(s) ${missing.join(", ")}, which this runtime does not have.` };
  }
  if (depth > MAX_SNIPPET_DEPTH) throw new Error(`codemode.run: snippets nest deeper than ${MAX_SNIPPET_DEPTH} levels.`);
  const request = await passRequest(pass, snippet.code, depth, input);
  if ("error" in request) return request;
  const result = await pass.deps.executor.run(request);
  if (result.error !== undefined) throw new Error(`Snippet "${snippet.name}" failed: ${messageOf(result.error.message)}`);
  return result.value;
}
