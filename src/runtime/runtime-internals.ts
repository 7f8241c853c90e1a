/**
 * What the package's own front ends (the MCP server) need from a runtime beyond its public methods, carried on
 * the handle under a symbol: the handle's spread copies (`createCodemodeRuntime` adds `tool()`) keep it, while
 * its type and the public surface do not show it. A runtime from another copy of the package has none.
 */
import { storeOperation } from "./store-operation.js";
import type { JournalStore } from "./journal/journal-store.js";

const INTERNALS = Symbol("ai-codemode.runtimeInternals");

/** The internal operations. */
export interface RuntimeInternals {
  /** Replaces the execution's tool call id `expected` by `next` (compare-and-set): whether this call changed it. */
  retagToolCall(retag: { executionId: string; expected: string; next: string }): Promise<boolean>;
}

/** `handle` with the internals over `store`. */
export function withRuntimeInternals<T extends object>(handle: T, store: JournalStore): T {
  const internals: RuntimeInternals = {
    retagToolCall: (retag) => storeOperation("retag the execution", () => store.retagToolCall(retag)),
  };
  return Object.assign(handle, { [INTERNALS]: internals });
}

/** The internals of a runtime handle, or `undefined` for one without (another copy of the package, a fake). */
export function runtimeInternals(runtime: object): RuntimeInternals | undefined {
  const found = (runtime as Record<symbol, unknown>)[INTERNALS];
  return typeof found === "object" && found !== null ? (found as RuntimeInternals) : undefined;
}
