/**
 * QuickJS wasm modules for one thread. Each module owns a `WebAssembly.Memory` with a fixed
 * maximum (the real memory cap: QuickJS's own `setMemoryLimit` is not a byte limit in the wasm
 * builds). Modules are reused across runs (each run still gets a fresh runtime and context), warmed
 * up once, and recycled when poisoned or bloated (wasm memory never shrinks).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import releaseSyncImport from "@jitl/quickjs-wasmfile-release-sync";
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSRuntime,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";

/** The variant package is typed as CommonJS; under ESM its default export is the variant itself. */
const releaseSyncVariant: QuickJSSyncVariant =
  (releaseSyncImport as unknown as { default?: QuickJSSyncVariant }).default ??
  (releaseSyncImport as unknown as QuickJSSyncVariant);

/** One wasm module and its memory. */
export interface SandboxModule {
  module: QuickJSWASMModule;
  memory: WebAssembly.Memory;
  /** The memory's maximum in bytes. */
  maxBytes: number;
  /**
   * A QuickJS runtime kept between runs that ended cleanly (each run still gets a fresh context:
   * separate globals and objects; the runtime holds only the atom table, shapes and the job queue,
   * which a clean run leaves empty). Dropped after any abnormal end.
   */
  runtime?: QuickJSRuntime | undefined;
  /** Runs served by `runtime`. */
  runtimeRuns: number;
}

const PAGE_BYTES = 65_536;
/** The QuickJS wasm build starts with 16 MiB of memory. */
const INITIAL_PAGES = 256;
/** A module whose memory grew past this is replaced after its run (the memory would never shrink). */
const RECYCLE_MEMORY_BYTES = 32 * 1024 * 1024;

let compiled: WebAssembly.Module | undefined;

/**
 * The QuickJS wasm, compiled once per thread (memoised) and posted to each worker. Synchronous on
 * purpose: V8 compiles wasm functions lazily, on first call, so this reads and validates the file
 * (~5 ms). An asynchronous compile resolves only when the main thread has a free turn: on a cold
 * start that is after the store opened, and the worker thread sat booted, waiting for its module.
 */
export function compileQuickJSWasm(): WebAssembly.Module {
  if (compiled === undefined) {
    const require = createRequire(import.meta.url);
    compiled = new WebAssembly.Module(readFileSync(require.resolve("@jitl/quickjs-wasmfile-release-sync/wasm")));
  }
  return compiled;
}

/** The compiled QuickJS wasm if {@link compileQuickJSWasm} has run in this thread (for tests). */
export function compiledQuickJSWasm(): WebAssembly.Module | undefined {
  return compiled;
}

/** A small CPU workload so the first real run does not pay wasm tier-up. */
const WARM_UP = `let s = 0; for (let i = 0; i < 30000; i++) s += i % 7; const o = []; for (let i = 0; i < 300; i++) o.push({ i, t: "x" + i });
JSON.parse(JSON.stringify(o)).length + s + [3, 1, 2].sort().join("").length + /a+b/.test("aaab")`;

/**
 * Creates a module whose memory cannot grow past `memoryLimitBytes`. `warmUp` runs a small CPU
 * workload first (~20 ms): worth it for modules made ahead of need, not when a run is waiting.
 */
export async function createSandboxModule(
  memoryLimitBytes: number,
  wasmModule?: WebAssembly.Module,
  { warmUp = true }: { warmUp?: boolean } = {},
): Promise<SandboxModule> {
  const maximum = Math.max(INITIAL_PAGES, Math.floor(memoryLimitBytes / PAGE_BYTES));
  const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum });
  const variant = newVariant(releaseSyncVariant, {
    wasmModule: wasmModule ?? compileQuickJSWasm(),
    wasmMemory: memory,
  });
  const module = await newQuickJSWASMModuleFromVariant(variant);
  if (warmUp) {
    const runtime = module.newRuntime();
    const context = runtime.newContext();
    context.evalCode(WARM_UP, "warm-up.js").dispose();
    context.dispose();
    runtime.dispose();
  }
  return { module, memory, maxBytes: maximum * PAGE_BYTES, runtimeRuns: 0 };
}

/** Idle modules of one thread: `acquire` one per run, `release` it after. */
export class SandboxModulePool {
  private readonly idle: SandboxModule[] = [];
  private refilling = 0;
  /** The modules being made ahead of need; a waiting run takes the next one instead of making its own. */
  private readonly made = new Set<Promise<void>>();

  constructor(
    private readonly memoryLimitBytes: number,
    private readonly maxIdle: number,
    private readonly wasmModule?: WebAssembly.Module,
  ) {}

  /**
   * Creates modules until `count` are idle or being made. `warmUp: false` at start-up, when a run
   * is likely to wait for the module (the warm-up workload would only delay it).
   */
  async warm(count = 1, { warmUp = true }: { warmUp?: boolean } = {}): Promise<void> {
    while (this.idle.length + this.refilling < Math.min(count, this.maxIdle)) {
      this.refilling++;
      const making = createSandboxModule(this.memoryLimitBytes, this.wasmModule, { warmUp }).then((sandbox) => {
        this.idle.push(sandbox);
      });
      this.made.add(making);
      try {
        await making;
      } finally {
        this.made.delete(making);
        this.refilling--;
      }
    }
  }

  /** An idle module, the one being made ahead, or a new one (made without the warm-up workload). */
  async acquire(): Promise<SandboxModule> {
    if (this.idle.length === 0 && this.made.size > 0) await Promise.race([...this.made]).catch(() => undefined);
    return this.idle.pop() ?? createSandboxModule(this.memoryLimitBytes, this.wasmModule, { warmUp: false });
  }

  /** Returns a module after a run; a poisoned or bloated one is dropped and replaced in the background. */
  release(sandbox: SandboxModule, { discard }: { discard: boolean }): void {
    if (discard || sandbox.memory.buffer.byteLength > RECYCLE_MEMORY_BYTES) {
      this.warm(1).catch(() => undefined);
      return;
    }
    if (this.idle.length < this.maxIdle) this.idle.push(sandbox);
  }

  /** Drops every idle module. */
  clear(): void {
    this.idle.length = 0;
  }
}
