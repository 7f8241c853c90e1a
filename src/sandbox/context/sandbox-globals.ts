/**
 * The globals of one run's context and its value bridge. Nothing is compiled before the program: the built-ins guest
 * code needs are read through the handle API (`guest-intrinsics.ts`), the binding namespaces are frozen objects of
 * host functions (`sandbox-namespaces.ts`), and `console`, the deterministic environment and the request's lazy
 * globals are accessors (`sandbox-console.ts`, `sandbox-lazy-globals.ts`). The guest modules
 * (`guest/*.js`, bundled to text in the generated `guest-sources.js`) compile on first use, at most once per run: plain JSON for
 * the first value that is not a primitive, the codec for the first that is not plain JSON, rendering for `console`
 * and errors. QuickJS 0.32 cannot run precompiled bytecode in a fresh context (see docs/decisions/sandbox-executor.md),
 * so what a run never uses costs it nothing instead.
 */
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle } from "quickjs-emscripten-core";
import { describeMissing } from "../codec/boundary-messages.js";
import { GuestIntrinsics } from "./guest-intrinsics.js";
import { GUEST_SOURCES, type GuestModuleName } from "../guest-sources.js";
import { SandboxConsole } from "./sandbox-console.js";
import { deferEnvironment, deferGlobals } from "./sandbox-lazy-globals.js";
import { missingMemberAt, programCallSite } from "./missing-member.js";
import { installNamespaces } from "./sandbox-namespaces.js";
import type { SessionBinding } from "../quickjs/session-types.js";
import type { CodeRunEnvironment } from "../types.js";

/**
 * What the sandbox side of a binding call hands the host: codec-JSON arguments (`tagged` false for
 * plain JSON). Returns the call's id, or a message when the call is refused (a limit).
 */
type SandboxCall = (ns: number, fn: number, argsJson: string, tagged: boolean, oversize?: number) => number | string;

/** Codec JSON of a value (`tagged` false when plain JSON), why it cannot cross, or its size over the bound. */
export type Encoded = { json: string; tagged: boolean } | { error: QuickJSHandle } | { tooLong: number };

/** Settings of one context. */
export interface SandboxGlobalsOptions {
  /** The program's script (to name the member of a failed call). */
  script: string;
  bindings: SessionBinding[];
  environment?: CodeRunEnvironment | undefined;
  /** Globals compiled on the program's first read: name → source of a function of the global object. */
  lazyGlobals?: Readonly<Record<string, string>> | undefined;
  maxLogChars: number;
  /** Largest encoded value, measured inside the sandbox before the text is read out. */
  maxValueChars: number;
  /** Receives each console line (already capped inside the sandbox). */
  onLog: (line: string) => void;
  /** Starts a host call; returns its id. */
  onCall: SandboxCall;
}

const UNDEFINED_JSON = '{"$":"undefined"}';
/** What QuickJS says when a program calls something that is not a function (a member a namespace lacks). */
const NOT_A_FUNCTION = "TypeError: not a function";

/** The program's globals and the value bridge of one context. Dispose it before the context. */
export class SandboxGlobals {
  /** A host-level failure (host stack overflow, wasm trap) seen inside a callback: the module must be replaced. */
  hostFailure: Error | undefined;
  /** The built-ins captured before the program ran (`Promise`, `Promise.resolve`, `Promise.prototype.then`, …). */
  readonly intrinsics: GuestIntrinsics;
  private readonly owned: QuickJSHandle[] = [];
  private readonly modules = new Map<GuestModuleName, QuickJSHandle>();
  private readonly pending = new Map<number, QuickJSDeferredPromise>();
  private readonly console: SandboxConsole;
  private config: QuickJSHandle | undefined;
  /** The deterministic environment: none, still to install (the program has not touched `Date` yet), installing, in. */
  private environment: "none" | "pending" | "installing" | "installed";

  constructor(
    private readonly context: QuickJSContext,
    private readonly options: SandboxGlobalsOptions,
  ) {
    this.intrinsics = new GuestIntrinsics(context, (handle) => this.own(handle));
    // A finalization callback could run after its run ended, in a later run on the same runtime.
    context.defineProp(context.global, "FinalizationRegistry", {
      value: context.undefined,
      configurable: false,
      enumerable: false,
    });
    installNamespaces(
      { context, intrinsics: this.intrinsics, call: (...args) => this.call(...args) },
      options.bindings,
    );
    this.console = new SandboxConsole({
      context,
      render: () => this.module("render"),
      compiledRender: () => this.modules.get("render"),
    });
    const lazy = {
      context,
      intrinsics: this.intrinsics,
      installEnvironment: () => this.installEnvironment(),
      own: (handle: QuickJSHandle) => this.own(handle),
      instantiate: (source: string, file: string, args: QuickJSHandle[]) => this.instantiate(source, file, args),
    };
    this.environment = options.environment === undefined ? "none" : "pending";
    if (this.environment === "pending") deferEnvironment(lazy);
    if (options.lazyGlobals !== undefined) deferGlobals(lazy, options.lazyGlobals);
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
        ? this.callModule("codec", "decodeJSON", text)
        : context.callFunction(this.intrinsics.get("parse"), context.undefined, text);
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
    const plain = this.callModule("plain", "json", value);
    if (plain.error) return { error: plain.error };
    if (context.typeof(plain.value) === "string") return this.readText(plain.value, false, max);
    plain.value.dispose();
    const pathHandle = context.newString(path);
    const result = this.callModule("codec", "encodeJSON", value, pathHandle);
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
   * Renders an error (or thrown value) for the model. QuickJS's `TypeError: not a function` names nothing; when
   * the failed call was `namespace.member(…)` and the namespace has no such member, it names that member.
   */
  renderError(error: QuickJSHandle): string {
    const text = this.renderText("renderError", error, this.context.true);
    if (!text.startsWith(NOT_A_FUNCTION)) return text;
    const site = programCallSite(this.renderText("stackOf", error));
    const missing = site === undefined ? undefined : missingMemberAt(this.options.script, site, this.options.bindings);
    if (missing === undefined) return text;
    return `TypeError: ${describeMissing(this.options.bindings[missing.ns], missing.key)}${text.slice(NOT_A_FUNCTION.length)}`;
  }

  /** Renders a completion value that cannot cross, with the reason. */
  renderFallback(value: QuickJSHandle, reason: QuickJSHandle): string {
    return this.renderText("fallback", value, reason);
  }

  /** Hands the host the console lines still buffered inside the sandbox. */
  flushLogs(): void {
    this.console.flush();
  }

  /** Disposes every handle this object holds; unsettled host calls are dropped. */
  dispose(): void {
    for (const deferred of this.pending.values()) deferred.dispose();
    this.pending.clear();
    for (const handle of this.owned.reverse()) if (handle.alive) handle.dispose();
    this.owned.length = 0;
  }

  private renderText(name: string, ...args: QuickJSHandle[]): string {
    const result = this.callModule("render", name, ...args);
    if (result.error) {
      result.error.dispose();
      return "Uncaught exception that could not be rendered";
    }
    const text = this.context.getString(result.value);
    result.value.dispose();
    return text;
  }

  private callModule(
    name: GuestModuleName,
    member: string,
    ...args: QuickJSHandle[]
  ): ReturnType<QuickJSContext["callFunction"]> {
    const api = this.module(name);
    const fn = this.context.getProp(api, member);
    try {
      return this.watch(() => this.context.callFunction(fn, this.context.undefined, ...args));
    } finally {
      fn.dispose();
    }
  }

  /** A guest module's api, compiled and made on first use in this run. */
  private module(name: GuestModuleName): QuickJSHandle {
    const made = this.modules.get(name);
    if (made !== undefined) return made;
    // A decoded `Date` must see the frozen constructor: the environment goes in before the codec can decode one.
    if (name === "codec") this.installEnvironment();
    const intrinsics = this.intrinsics.guest();
    const args = name === "render" ? [intrinsics, this.guestConfig(), this.hostLog()] : [intrinsics];
    const api = this.own(this.instantiate(GUEST_SOURCES[name], `${name}.js`, args));
    this.modules.set(name, api);
    return api;
  }

  /** The environment's `Date` and `Math.random`, installed on first need. */
  private installEnvironment(): void {
    if (this.environment === "installing") throw new Error("the environment read Date or Math.random while installing");
    if (this.environment !== "pending") return;
    this.environment = "installing";
    const { context } = this;
    try {
      const guest = [this.intrinsics.guest(), this.guestConfig(), context.global];
      this.instantiate(GUEST_SOURCES.environment, "environment.js", guest).dispose();
      this.environment = "installed";
    } catch (error) {
      this.environment = "pending";
      throw error;
    }
  }

  /** Compiles `source` (an expression whose value is a function) and calls that function with `args`. */
  private instantiate(source: string, file: string, args: QuickJSHandle[]): QuickJSHandle {
    const { context } = this;
    return this.watch(() => {
      const factory = context.unwrapResult(context.evalCode(source, file));
      try {
        return context.unwrapResult(context.callFunction(factory, context.undefined, ...args));
      } finally {
        factory.dispose();
      }
    });
  }

  /**
   * Runs host work that calls into the sandbox. A host stack overflow or a wasm trap inside it would otherwise
   * reach the program as an ordinary exception; the session must know the substrate is no longer trustworthy.
   */
  private watch<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof RangeError || error instanceof WebAssembly.RuntimeError) this.hostFailure ??= error;
      throw error;
    }
  }

  /** The run's settings for guest code (`GuestConfig`), made on first use. */
  private guestConfig(): QuickJSHandle {
    if (this.config !== undefined) return this.config;
    const { context, options } = this;
    const config = this.own(context.newObject(context.null));
    const set = (key: string, value: QuickJSHandle): void => {
      context.setProp(config, key, value);
      value.dispose();
    };
    set("maxLogChars", context.newNumber(options.maxLogChars));
    if (options.environment) {
      set("epochMs", context.newNumber(options.environment.epochMs));
      set("randomSeed", context.newString(options.environment.randomSeed));
    }
    this.intrinsics.freeze(config);
    this.config = config;
    return config;
  }

  /** The render module's way out: a JSON array of lines, and whether the log budget is spent. */
  private hostLog(): QuickJSHandle {
    const { context, options } = this;
    return this.own(
      context.newFunction("hostLog", (batch, closed) => {
        // A JSON array of lines, made with the captured `JSON.stringify`.
        const lines = JSON.parse(context.getString(batch)) as unknown;
        if (Array.isArray(lines)) for (const line of lines) if (typeof line === "string") options.onLog(line);
        if (closed !== undefined && context.dump(closed) === true) this.console.close();
      }),
    );
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
}
