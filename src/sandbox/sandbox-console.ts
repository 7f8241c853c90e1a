/**
 * The program's `console`. It starts as host functions (no chunk is compiled for runs that never
 * log); the first call compiles the render chunk and, unless the program replaced `console`, swaps
 * in the chunk's own console, which renders and buffers lines inside the sandbox and hands them to
 * the host in batches. Once the log budget is spent, a console of ours is replaced by no-ops that
 * never leave the sandbox, and the host functions return at once.
 */
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";

/** What the console needs from the context's globals. */
export interface ConsoleHost {
  context: QuickJSContext;
  /** The built-ins captured before the program ran (holds `quietConsole`). */
  intrinsics: QuickJSHandle;
  own(handle: QuickJSHandle): QuickJSHandle;
  freeze(target: QuickJSHandle): void;
  callChunk(name: string, member: string, ...args: QuickJSHandle[]): ReturnType<QuickJSContext["callFunction"]>;
  chunk(name: string): QuickJSHandle;
  /** The chunk's api if it was compiled in this run. */
  compiled(name: string): QuickJSHandle | undefined;
}

const METHODS = [
  ["log", ""],
  ["info", ""],
  ["debug", ""],
  ["warn", "[warn] "],
  ["error", "[error] "],
] as const;

/** One run's console. */
export class SandboxConsole {
  private closed = false;
  private readonly target: QuickJSHandle;

  constructor(private readonly host: ConsoleHost) {
    const { context } = host;
    this.target = host.own(context.newObject(context.null));
    for (const [name, prefix] of METHODS) {
      const method = context.newFunction(name, (...args) => {
        if (this.closed) return undefined;
        const prefixHandle = context.newString(prefix);
        const result = host.callChunk("render", "log", prefixHandle, ...args);
        prefixHandle.dispose();
        if (result.error) return result;
        result.value.dispose();
        this.swap();
        return undefined;
      });
      context.setProp(this.target, name, method);
      method.dispose();
    }
    host.freeze(this.target);
    context.defineProp(context.global, "console", { value: this.target, configurable: true, enumerable: false });
  }

  /** Hands the host the lines still buffered inside the sandbox. */
  flush(): void {
    if (this.host.compiled("render") === undefined) return;
    const result = this.host.callChunk("render", "flush");
    if (result.error) result.error.dispose();
    else result.value.dispose();
  }

  /** Past the log budget: a console of ours becomes a frozen object of no-ops that never leave the sandbox. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const { context } = this.host;
    const current = context.getProp(context.global, "console");
    const render = this.host.compiled("render");
    const chunkConsole = render === undefined ? undefined : context.getProp(render, "console");
    const ours =
      context.sameValue(current, this.target) ||
      (chunkConsole !== undefined && context.sameValue(current, chunkConsole));
    chunkConsole?.dispose();
    current.dispose();
    if (!ours) return;
    const quiet = context.getProp(this.host.intrinsics, "quietConsole");
    context.defineProp(context.global, "console", { value: quiet, configurable: true, enumerable: false });
    quiet.dispose();
  }

  /** After the first call: the chunk's console replaces the host functions, unless the program replaced `console`. */
  private swap(): void {
    const { context } = this.host;
    const current = context.getProp(context.global, "console");
    const unchanged = context.sameValue(current, this.target);
    current.dispose();
    if (!unchanged || this.closed) return;
    const inner = context.getProp(this.host.chunk("render"), "console");
    context.defineProp(context.global, "console", { value: inner, configurable: true, enumerable: false });
    inner.dispose();
  }
}
