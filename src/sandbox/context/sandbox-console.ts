/**
 * The program's `console`. Until the program reads it, the global is an accessor (one host function, nothing
 * compiled, so a run that never logs pays for no rendering code); the first read compiles the render module and puts
 * its console in place, which renders and buffers lines inside the sandbox and hands them to the host in batches.
 * Once the log budget is spent, a console of ours is replaced by no-ops that never leave the sandbox.
 */
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";

/** What the console needs from the context's globals. */
export interface ConsoleHost {
  context: QuickJSContext;
  /** The render module's api, compiled on first call. */
  render(): QuickJSHandle;
  /** The render module's api if it was compiled in this run. */
  compiledRender(): QuickJSHandle | undefined;
}

/** One run's console. */
export class SandboxConsole {
  private closed = false;

  constructor(private readonly host: ConsoleHost) {
    const { context } = host;
    context.defineProp(context.global, "console", { get: () => this.install(), configurable: true, enumerable: false });
  }

  /** Hands the host the lines still buffered inside the sandbox. */
  flush(): void {
    const render = this.host.compiledRender();
    if (render === undefined) return;
    const { context } = this.host;
    const flush = context.getProp(render, "flush");
    const result = context.callFunction(flush, context.undefined);
    flush.dispose();
    if (result.error) result.error.dispose();
    else result.value.dispose();
  }

  /** Past the log budget: a console of ours becomes a frozen object of no-ops that never leave the sandbox. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const render = this.host.compiledRender();
    if (render === undefined) return;
    const { context } = this.host;
    const current = context.getProp(context.global, "console");
    const ours = context.getProp(render, "console");
    const unchanged = context.sameValue(current, ours);
    ours.dispose();
    current.dispose();
    if (!unchanged) return;
    const quiet = context.getProp(render, "quietConsole");
    context.defineProp(context.global, "console", { value: quiet, configurable: true, enumerable: false });
    quiet.dispose();
  }

  /** The first read: the render module's console becomes the global's value. */
  private install(): QuickJSHandle {
    const { context } = this.host;
    const inner = context.getProp(this.host.render(), this.closed ? "quietConsole" : "console");
    context.defineProp(context.global, "console", { value: inner, configurable: true, enumerable: false });
    return inner;
  }
}
