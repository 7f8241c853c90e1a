/**
 * Works around a quickjs-emscripten-core 0.32 bug (docs/upstream/quickjs-emscripten-detached-view.md):
 * `newPromise()` and `executePendingJobs()` read their output slots through a typed-array view made
 * before the wasm call; when the sandbox's memory grows during the call that view is detached, so
 * `newPromise()` throws `Cannot perform %TypedArray%.prototype.values on a detached ArrayBuffer` and
 * `executePendingJobs()` reads `undefined` as the context pointer and silently creates a context
 * (QuickJS then asserts `list_empty(&rt->gc_obj_list)` on dispose).
 *
 * The fix here: the scratch arrays of one runtime's and one context's memory hand out a fresh view
 * over the current heap on every read, so a read after the call sees the grown memory.
 */
import type { QuickJSContext, QuickJSRuntime } from "quickjs-emscripten-core";

type TypedArrayKind = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => ArrayLike<number>;

interface ScratchMemory {
  module?: { HEAPU8?: Uint8Array };
  newTypedArray?: (kind: TypedArrayKind, length: number) => { value: { typedArray: unknown; ptr: number } };
}

const PATCHED = Symbol("ai-codemode.freshViews");

/** Makes the scratch views of `owner`'s memory read the current heap. Idempotent; a no-op if the internals changed. */
export function useFreshScratchViews(owner: QuickJSRuntime | QuickJSContext): void {
  const memory = (owner as unknown as { memory?: ScratchMemory & { [PATCHED]?: true } }).memory;
  const original = memory?.newTypedArray;
  if (memory === undefined || typeof original !== "function" || memory[PATCHED] === true) return;
  memory[PATCHED] = true;
  memory.newTypedArray = function newTypedArray(this: ScratchMemory, kind: TypedArrayKind, length: number) {
    const lifetime = original.call(this, kind, length);
    const heap = this.module;
    const { ptr } = lifetime.value;
    if (heap?.HEAPU8 === undefined) return lifetime;
    Object.defineProperty(lifetime.value, "typedArray", {
      get: () => new kind((heap.HEAPU8 as Uint8Array).buffer, ptr, length),
      configurable: true,
    });
    return lifetime;
  };
}
