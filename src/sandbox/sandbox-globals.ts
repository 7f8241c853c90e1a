/**
 * Builds what a program sees, in a fresh QuickJS context, through the handle API (no JavaScript
 * is parsed for it): one frozen null-prototype global per binding namespace whose members return
 * promises settled by the host, a captured `console`, and the deterministic environment. Also
 * reads and writes values across the boundary (plain values directly, the rest through the
 * sandbox-side codec chunk).
 */
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle } from "quickjs-emscripten-core";
import { memberPath } from "./codec-validation.js";
import { describeMissing } from "./boundary-messages.js";
import { SandboxConsole } from "./sandbox-console.js";
import { INTRINSICS_CHUNK, PRELUDE_CHUNKS } from "./sandbox-prelude.js";
import type { CodeRunEnvironment } from "./types.js";

/**
 * What the sandbox side of a binding call hands the host: codec-JSON arguments (`tagged` false for
 * plain JSON). Returns the call's id, or a message when the call is refused (a limit).
 */
export type SandboxCall = (
  ns: number,
  fn: number,
  argsJson: string,
  tagged: boolean,
  oversize?: number,
) => number | string;

/** Codec JSON of a value (`tagged` false when plain JSON), why it cannot cross, or its size over the bound. */
export type Encoded = { json: string; tagged: boolean } | { error: QuickJSHandle } | { tooLong: number };

/** Settings of one context. */
export interface SandboxGlobalsOptions {
  bindings: Array<{ global: string; functions: string[] }>;
  environment?: CodeRunEnvironment | undefined;
  maxLogChars: number;
  /** Largest encoded value, measured inside the sandbox before the text is read out. */
  maxValueChars: number;
  /** Receives each console line (already capped inside the sandbox). */
  onLog: (line: string) => void;
  /** Starts a host call; returns its id. */
  onCall: SandboxCall;
}

const UNDEFINED_JSON = '{"$":"undefined"}';

/** The program's globals and the value bridge of one context. Dispose it before the context. */
export class SandboxGlobals {
  /** A host-level failure (host stack overflow, wasm trap) seen inside a callback: the module must be replaced. */
  hostFailure: Error | undefined;
  private readonly owned: QuickJSHandle[] = [];
  private readonly chunks = new Map<string, QuickJSHandle>();
  private readonly pending = new Map<number, QuickJSDeferredPromise>();
  private readonly stringify: QuickJSHandle;
  private readonly parse: QuickJSHandle;
  private readonly config: QuickJSHandle;
  private readonly hostLog: QuickJSHandle;
  /** Built-ins captured before the program runs; the chunks use these, never the program's globals. */
  private readonly intrinsics: QuickJSHandle;
  private console: SandboxConsole | undefined;
  /** The last member read from a namespace that does not have it. */
  private lastMissing: { ns: number; key: string } | undefined;
  /** `Promise.resolve` and `Promise.prototype.then`, captured before the program runs. */
  readonly promiseResolve: QuickJSHandle;
  readonly promiseThen: QuickJSHandle;
  readonly promiseConstructor: QuickJSHandle;

  constructor(
    private readonly context: QuickJSContext,
    private readonly options: SandboxGlobalsOptions,
  ) {
    const json = this.own(context.getProp(context.global, "JSON"));
    this.stringify = this.own(context.getProp(json, "stringify"));
    this.parse = this.own(context.getProp(json, "parse"));
    this.promiseConstructor = this.own(context.getProp(context.global, "Promise"));
    this.promiseResolve = this.own(context.getProp(this.promiseConstructor, "resolve"));
    const prototype = this.own(context.getProp(this.promiseConstructor, "prototype"));
    this.promiseThen = this.own(context.getProp(prototype, "then"));
    this.config = this.own(context.newObject());
    this.setValue(this.config, "maxLogChars", context.newNumber(options.maxLogChars));
    if (options.environment) {
      this.setValue(this.config, "epochMs", context.newNumber(options.environment.epochMs));
      this.setValue(this.config, "randomSeed", context.newString(options.environment.randomSeed));
    }
    this.intrinsics = this.own(this.evalFactory(INTRINSICS_CHUNK, "intrinsics.js"));
    this.hostLog = this.own(
      context.newFunction("hostLog", (batch, closed) => {
        // A JSON array of lines, made with the captured `JSON.stringify` (see the render chunk).
        const lines = JSON.parse(context.getString(batch)) as unknown;
        if (Array.isArray(lines)) for (const line of lines) if (typeof line === "string") options.onLog(line);
        if (closed !== undefined && context.dump(closed) === true) this.console?.close();
      }),
    );
    // A finalization callback could run after its run ended, in a later run on the same runtime.
    context.defineProp(context.global, "FinalizationRegistry", {
      value: context.undefined,
      configurable: false,
      enumerable: false,
    });
    this.installBindings();
    this.console = new SandboxConsole({
      context,
      intrinsics: this.intrinsics,
      own: (handle) => this.own(handle),
      freeze: (target) => this.freeze(target),
      callChunk: (name, member, ...args) => this.callChunk(name, member, ...args),
      chunk: (name) => this.chunk(name),
      compiled: (name) => this.chunks.get(name),
    });
    if (options.environment) this.chunk("environment");
  }

  /** Keeps a handle until {@link dispose}. */
  own(handle: QuickJSHandle): QuickJSHandle {
    this.owned.push(handle);
    return handle;
  }

  /** Settles the promise of host call `id`: `json` is codec JSON (`tagged` when it needs decoding), else `message` rejects. */
  settle(id: number, reply: { ok: true; json: string; tagged: boolean } | { ok: false; message: string }): void {
    const deferred = this.pending.get(id);
    if (deferred === undefined) return;
    this.pending.delete(id);
    const { context } = this;
    if (!reply.ok) {
      const error = context.newError(reply.message);
      deferred.reject(error);
      error.dispose();
    } else {
      const primitive = reply.tagged ? undefined : this.primitiveHandle(reply.json);
      if (primitive !== undefined) {
        deferred.resolve(primitive);
        primitive.dispose();
        deferred.dispose();
        return;
      }
      const text = context.newString(reply.json);
      const read = reply.tagged
        ? this.callChunk("codec", "decodeJSON", text)
        : context.callFunction(this.parse, context.undefined, text);
      text.dispose();
      if (read.error) {
        deferred.reject(read.error);
        read.error.dispose();
      } else {
        deferred.resolve(read.value);
        read.value.dispose();
      }
    }
    deferred.dispose();
  }

  /** A handle for plain JSON that is a number or a string, made without calling into the sandbox. */
  private primitiveHandle(json: string): QuickJSHandle | undefined {
    const first = json.charCodeAt(0);
    if (first === 34 /* " */) return this.context.newString(JSON.parse(json) as string);
    if (first === 45 /* - */ || (first >= 48 && first <= 57)) return this.context.newNumber(Number(json));
    return undefined;
  }

  /**
   * Codec JSON of a value, the sandbox error handle explaining why it cannot cross, or its size when
   * over `maxValueChars` (measured inside the sandbox: an oversized text is never copied out).
   */
  toJson(value: QuickJSHandle, path: string, max = this.options.maxValueChars): Encoded {
    const { context } = this;
    switch (context.typeof(value)) {
      case "string": {
        const length = this.lengthOf(value);
        if (length + 2 > max) return { tooLong: length + 2 };
        return { json: JSON.stringify(context.getString(value)), tagged: false };
      }
      case "number": {
        const number = context.getNumber(value);
        if (Number.isFinite(number) && !Object.is(number, -0)) return { json: JSON.stringify(number), tagged: false };
        break;
      }
      case "boolean":
        return { json: JSON.stringify(context.dump(value) as boolean), tagged: false };
      case "undefined":
        return { json: UNDEFINED_JSON, tagged: true };
    }
    const plain = this.callChunk("plain", "json", value);
    if (plain.error) return { error: plain.error };
    if (context.typeof(plain.value) === "string") return this.readText(plain.value, false, max);
    plain.value.dispose();
    const pathHandle = context.newString(path);
    const result = this.callChunk("codec", "encodeJSON", value, pathHandle);
    pathHandle.dispose();
    if (result.error) return { error: result.error };
    return this.readText(result.value, true, max);
  }

  /** Reads (and disposes) a JSON text handle unless it is over the bound. */
  private readText(text: QuickJSHandle, tagged: boolean, max: number): Encoded {
    const length = this.lengthOf(text);
    if (length > max) {
      text.dispose();
      return { tooLong: length };
    }
    const json = this.context.getString(text);
    text.dispose();
    return { json, tagged };
  }

  private lengthOf(text: QuickJSHandle): number {
    const length = this.context.getProp(text, "length");
    const value = this.context.getNumber(length);
    length.dispose();
    return value;
  }

  /**
   * Renders an error (or thrown value) for the model. QuickJS's `TypeError: not a function` names
   * nothing; after the program read a member a namespace does not have, it names that member.
   */
  renderError(error: QuickJSHandle): string {
    const text = this.renderText("renderError", error, this.context.true);
    const missing = this.lastMissing;
    if (missing === undefined || !text.startsWith("TypeError: not a function")) return text;
    return `TypeError: ${describeMissing(this.options.bindings[missing.ns], missing.key)}${text.slice("TypeError: not a function".length)}`;
  }

  /** Renders a completion value that cannot cross, with the reason. */
  renderFallback(value: QuickJSHandle, reason: QuickJSHandle): string {
    return this.renderText("fallback", value, reason);
  }

  /** Disposes every handle this object holds; unsettled host calls are dropped. */
  dispose(): void {
    for (const deferred of this.pending.values()) deferred.dispose();
    this.pending.clear();
    for (const handle of this.owned.reverse()) if (handle.alive) handle.dispose();
    this.owned.length = 0;
  }

  private setValue(target: QuickJSHandle, key: string, value: QuickJSHandle): void {
    this.context.setProp(target, key, value);
    value.dispose();
  }

  private renderText(name: string, ...args: QuickJSHandle[]): string {
    const result = this.callChunk("render", name, ...args);
    if (result.error) {
      result.error.dispose();
      return "Uncaught exception that could not be rendered";
    }
    const text = this.context.getString(result.value);
    result.value.dispose();
    return text;
  }

  private callChunk(
    name: string,
    member: string,
    ...args: QuickJSHandle[]
  ): ReturnType<QuickJSContext["callFunction"]> {
    try {
      const api = this.chunk(name);
      const fn = this.context.getProp(api, member);
      try {
        return this.context.callFunction(fn, this.context.undefined, ...args);
      } finally {
        fn.dispose();
      }
    } catch (error) {
      // A host stack overflow or a wasm trap inside a host callback would otherwise reach the program
      // as an ordinary exception; the session must know the substrate is no longer trustworthy.
      if (error instanceof RangeError || error instanceof WebAssembly.RuntimeError) this.hostFailure ??= error;
      throw error;
    }
  }

  private chunk(name: string): QuickJSHandle {
    const cached = this.chunks.get(name);
    if (cached) return cached;
    const source = PRELUDE_CHUNKS[name];
    if (source === undefined) throw new Error(`unknown prelude chunk ${name}`);
    const handle = this.own(this.evalFactory(source, `${name}.js`));
    this.chunks.set(name, handle);
    return handle;
  }

  /** Compiles a chunk factory and calls it with `(config, hostLog, stringify, parse, intrinsics)`. */
  private evalFactory(source: string, file: string): QuickJSHandle {
    const { context } = this;
    const factory = context.unwrapResult(context.evalCode(source, file));
    // The intrinsics chunk itself runs before `hostLog` and `intrinsics` exist.
    const args = [this.config, this.hostLog, this.stringify, this.parse, this.intrinsics].map(
      (handle) => handle ?? context.undefined,
    );
    const api = context.callFunction(factory, context.undefined, ...args);
    factory.dispose();
    return context.unwrapResult(api);
  }

  private freeze(target: QuickJSHandle): void {
    const objectConstructor = this.context.getProp(this.context.global, "Object");
    const freeze = this.context.getProp(objectConstructor, "freeze");
    this.context.callFunction(freeze, objectConstructor, target).dispose();
    freeze.dispose();
    objectConstructor.dispose();
  }

  private installBindings(): void {
    const { context, options } = this;
    options.bindings.forEach((binding, ns) => {
      const target = context.newObject(context.null);
      binding.functions.forEach((name, fn) => {
        const path = `${memberPath(binding.global, name)} arguments`;
        const member = context.newFunction(name, (args) => this.call(ns, fn, path, args));
        context.defineProp(target, name, { value: member, enumerable: true, configurable: false });
        member.dispose();
      });
      this.freeze(target);
      const missing = context.newFunction("missing", (key) => {
        this.lastMissing = { ns, key: context.getString(key) };
      });
      const make = context.getProp(this.intrinsics, "namespace");
      const namespace = context.unwrapResult(context.callFunction(make, context.undefined, target, missing));
      make.dispose();
      missing.dispose();
      context.defineProp(context.global, binding.global, { value: namespace, configurable: false, enumerable: false });
      namespace.dispose();
      target.dispose();
    });
  }

  private call(ns: number, fn: number, path: string, args: QuickJSHandle | undefined): QuickJSHandle {
    const { context } = this;
    const deferred = context.newPromise();
    const encoded = this.toJson(args ?? context.undefined, path);
    // The returned handle is consumed by quickjs-emscripten; the deferred keeps only its resolvers.
    if ("error" in encoded) {
      deferred.reject(encoded.error);
      encoded.error.dispose();
      return deferred.handle;
    }
    // Over the bound, only the size crosses: the host fails the call (the runtime with kind `limit`).
    const started =
      "tooLong" in encoded
        ? this.options.onCall(ns, fn, "", false, encoded.tooLong)
        : this.options.onCall(ns, fn, encoded.json, encoded.tagged);
    if (typeof started === "string") {
      const error = context.newError({ name: "RangeError", message: started });
      deferred.reject(error);
      error.dispose();
      return deferred.handle;
    }
    this.pending.set(started, deferred);
    return deferred.handle;
  }

  /** Hands the host the console lines still buffered inside the sandbox. */
  flushLogs(): void {
    this.console?.flush();
  }
}
