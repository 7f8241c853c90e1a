/**
 * Globals a run defines only when the program first touches them, as accessors (host functions, nothing compiled
 * until then):
 * - the deterministic environment: the first read or write of `Date` or `Math.random` installs the frozen `Date` and
 *   the seeded `Math.random` (`guest/environment.js`); so does the first value with a tag that crosses into the
 *   sandbox (`SandboxGlobals` installs it before compiling the codec: a decoded `Date` must already see the frozen
 *   constructor, or its `constructor` would reach the real clock);
 * - `CodeRunRequest.lazyGlobals` (the runtime's `codemode` and `fetch`): the first read compiles the source; the
 *   global is a non-configurable accessor without a setter whose every read gives what that returned.
 */
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import type { GuestIntrinsics } from "./guest-intrinsics.js";

/** What the lazy globals need from the context's globals. */
export interface LazyGlobalsHost {
  context: QuickJSContext;
  intrinsics: GuestIntrinsics;
  /** Installs the deterministic environment (once; a no-op after). */
  installEnvironment(): void;
  /** Keeps `handle` as long as the context's other handles. */
  own(handle: QuickJSHandle): QuickJSHandle;
  /** Compiles `source` (an expression whose value is a function) and calls that function with `args`. */
  instantiate(source: string, file: string, args: QuickJSHandle[]): QuickJSHandle;
}

/** Makes `Date` and `Math.random` accessors that install the environment first. */
export function deferEnvironment(host: LazyGlobalsHost): void {
  const { context, intrinsics } = host;
  const accessor = (target: QuickJSHandle, key: "Date" | "random"): void => {
    context.defineProp(target, key, {
      get: () => {
        host.installEnvironment();
        return context.getProp(target, key);
      },
      // `Date = …` before any read: the environment goes in first, then the program's value replaces it.
      set: (value) => {
        host.installEnvironment();
        defineBuiltIn(context, intrinsics, target, key, value);
      },
      configurable: true,
      enumerable: false,
    });
  };
  accessor(context.global, "Date");
  accessor(intrinsics.get("Math"), "random");
}

/**
 * Makes each of `globals` an accessor whose first read compiles its source; later reads give the same value. It is
 * not configurable and has no setter, as the frozen global it stands for: a program cannot delete, replace or
 * redefine it, before its first read or after (the red-team corpus's "overwrite the codemode global").
 */
export function deferGlobals(host: LazyGlobalsHost, globals: Readonly<Record<string, string>>): void {
  const { context } = host;
  for (const [name, source] of Object.entries(globals)) {
    let value: QuickJSHandle | undefined;
    // The callback must not keep what it returns: it keeps the value and returns a duplicate.
    const get = (): QuickJSHandle => {
      value ??= host.own(host.instantiate(source, `${name}.js`, [context.global]));
      return value.dup();
    };
    context.defineProp(context.global, name, { get, configurable: false, enumerable: false });
  }
}

/** `Object.defineProperty(target, key, { value, writable: true, configurable: true })` with the captured built-in. */
function defineBuiltIn(
  context: QuickJSContext,
  intrinsics: GuestIntrinsics,
  target: QuickJSHandle,
  key: string,
  value: QuickJSHandle,
): void {
  const descriptor = context.newObject(context.null);
  context.setProp(descriptor, "value", value);
  context.setProp(descriptor, "writable", context.true);
  context.setProp(descriptor, "configurable", context.true);
  const name = context.newString(key);
  const defined = context.callFunction(intrinsics.get("defineProperty"), context.undefined, target, name, descriptor);
  name.dispose();
  descriptor.dispose();
  context.unwrapResult(defined).dispose();
}
