/**
 * Snippets: an execution's code saved under a name with the
 * connector list of that execution; `codemode.run(name, input)` runs it.
 */
import { MAX_ID_CHARS, MAX_SNIPPET_DESCRIPTION_CHARS, quoted } from "../shared/bounded-text.js";
import { isRecord } from "../shared/is-record.js";
import { unknownKeyProblem } from "../shared/known-keys.js";
import { messageOf } from "../shared/message-of.js";
import { storeDescription } from "./store/connection/open-store.js";
import { notFoundMessage } from "./execution-request.js";
import { described, readId } from "./read-arguments.js";
import { SAVE_SNIPPET_OPTION_KEYS } from "./request-keys.js";
import { checkJournalSize } from "./journal/journal-values.js";
import { snippetView } from "./execution-views.js";
import type { RuntimeCore } from "./runtime-core.js";
import { storeOperation } from "./store-operation.js";
import type { SaveSnippetOutput, Snippet } from "./types.js";

/** Snippet names are identifiers, so `snippets.name` paths and `codemode.run("name")` read naturally. */
const SNIPPET_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,127}$/;

/** A `validation` refusal of `saveSnippet`. */
function invalid(error: string): SaveSnippetOutput {
  return { status: "error", kind: "validation", error };
}

/** Saves (or replaces) a snippet from an execution's code. Any status is accepted: check it first. */
export async function saveSnippet(core: RuntimeCore, name: string, options: unknown): Promise<SaveSnippetOutput> {
  if (!isRecord(options)) {
    return invalid(
      `saveSnippet(name, { executionId, description?, inputSchema? }) needs an options object naming the execution (got ${described(options)}).`,
    );
  }
  const unknownKey = unknownKeyProblem(options, SAVE_SNIPPET_OPTION_KEYS);
  if (unknownKey !== undefined) return invalid(`saveSnippet(name, options): ${unknownKey}. Nothing was saved.`);
  const { executionId, description, inputSchema } = options;
  if (typeof name !== "string" || !SNIPPET_NAME.test(name)) {
    const error = `Snippet name ${quoted(name)} is invalid: use letters, digits, "_" or "-", starting with a letter or "_" (at most 128).`;
    return { status: "error", kind: "validation", error };
  }
  if (
    description !== undefined &&
    (typeof description !== "string" || description.length > MAX_SNIPPET_DESCRIPTION_CHARS)
  ) {
    const error = `A snippet description must be a string of at most ${MAX_SNIPPET_DESCRIPTION_CHARS} characters (one or two sentences).`;
    return { status: "error", kind: "validation", error };
  }
  if (typeof executionId !== "string" || executionId === "") {
    return invalid("saveSnippet(name, { executionId }) needs the id of the execution whose code to save.");
  }
  let inputSchemaText: string | undefined;
  if (inputSchema !== undefined) {
    try {
      inputSchemaText = JSON.stringify(inputSchema);
    } catch (error) {
      return { status: "error", kind: "validation", error: `inputSchema must be JSON (${messageOf(error)}).` };
    }
    const size = checkJournalSize(inputSchemaText, "The inputSchema");
    if (!size.ok) return { status: "error", kind: "validation", error: size.error };
  }
  // An id longer than any id the runtime makes names nothing: no round trip.
  const loaded =
    executionId.length > MAX_ID_CHARS
      ? undefined
      : await storeOperation("read the execution", () => core.store.load(executionId));
  if (loaded === undefined)
    return {
      status: "error",
      kind: "not-found",
      error: notFoundMessage(executionId, core.options.name, storeDescription(core.options.store)),
    };
  const record = {
    name,
    code: loaded.execution.code,
    connectors: loaded.execution.connectors,
    executionId,
    createdAt: core.options.now(),
    ...(description === undefined ? {} : { description }),
    ...(inputSchemaText === undefined ? {} : { inputSchemaText }),
  };
  await storeOperation("save the snippet", () => core.store.saveSnippet(record));
  return { status: "saved", snippet: snippetView(record) };
}

/** All snippets of this runtime name. */
export async function listSnippets(core: RuntimeCore): Promise<Snippet[]> {
  return (await storeOperation("list snippets", () => core.store.snippets())).map(snippetView);
}

/** Deletes a snippet; a name no snippet can have deletes nothing (and costs no round trip). */
export async function deleteSnippet(core: RuntimeCore, name: unknown): Promise<{ deleted: boolean }> {
  const wanted = readId("deleteSnippet(name)", name);
  if (wanted === undefined || !SNIPPET_NAME.test(wanted)) return { deleted: false };
  return { deleted: await storeOperation("delete the snippet", () => core.store.deleteSnippet(wanted)) };
}
