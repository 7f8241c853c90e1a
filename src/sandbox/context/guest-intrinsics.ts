/**
 * The built-ins of a run's context, read by the host before the program runs. Guest code compiled later (the
 * codec, rendering, the environment: after the program may have replaced `String`, `JSON.stringify` or
 * `Object.keys`) receives them as one frozen object (`Intrinsics` in `guest/guest-types.js`), and the host uses a
 * few itself (`Promise.prototype.then` for the completion, `Proxy` and `Reflect.construct` for the namespaces).
 * Reading them is ~30 property reads through the handle API; nothing is compiled for it.
 */
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";

/** Each built-in and where it is read: a global, or members below one (`Object.prototype.hasOwnProperty`). */
const CAPTURED = {
  String: ["String"],
  Date: ["Date"],
  Map: ["Map"],
  Set: ["Set"],
  Uint8Array: ["Uint8Array"],
  ArrayBuffer: ["ArrayBuffer"],
  TypeError: ["TypeError"],
  Error: ["Error"],
  BigInt: ["BigInt"],
  Math: ["Math"],
  iterator: ["Symbol", "iterator"],
  keys: ["Object", "keys"],
  getPrototypeOf: ["Object", "getPrototypeOf"],
  defineProperty: ["Object", "defineProperty"],
  getOwnPropertyDescriptor: ["Object", "getOwnPropertyDescriptor"],
  freeze: ["Object", "freeze"],
  objectPrototype: ["Object", "prototype"],
  hasOwnProperty: ["Object", "prototype", "hasOwnProperty"],
  isArray: ["Array", "isArray"],
  stringify: ["JSON", "stringify"],
  parse: ["JSON", "parse"],
  construct: ["Reflect", "construct"],
  now: ["Date", "now"],
  // The host's own, not handed to guest code.
  Promise: ["Promise"],
  promiseResolve: ["Promise", "resolve"],
  promiseThen: ["Promise", "prototype", "then"],
  Proxy: ["Proxy"],
} as const satisfies Record<string, readonly string[]>;

/** A captured built-in's name. */
export type IntrinsicName = keyof typeof CAPTURED;

/** Captured for the host only (the guest's `Intrinsics` object leaves them out). */
const HOST_ONLY: ReadonlySet<IntrinsicName> = new Set(["Promise", "promiseResolve", "promiseThen", "Proxy"]);

/**
 * The reads, in order, made once per process: each reads `key` of an earlier read (`parent`, an index) or of the
 * global object (`parent` -1), so `Object` and `Object.prototype` are read once per run however many members use them.
 */
const READS: ReadonlyArray<{ parent: number; key: string; name: IntrinsicName | undefined }> = (() => {
  const reads: Array<{ parent: number; key: string; name: IntrinsicName | undefined }> = [];
  const index = new Map<string, number>();
  for (const [name, path] of Object.entries(CAPTURED) as Array<[IntrinsicName, readonly string[]]>) {
    path.forEach((key, depth) => {
      const id = path.slice(0, depth + 1).join(".");
      const known = index.get(id);
      const last = depth === path.length - 1;
      if (known !== undefined) {
        if (last) (reads[known] as { name: IntrinsicName | undefined }).name = name;
        return;
      }
      index.set(id, reads.length);
      reads.push({
        parent: depth === 0 ? -1 : (index.get(path.slice(0, depth).join(".")) as number),
        key,
        name: last ? name : undefined,
      });
    });
  }
  return reads;
})();

/** The built-ins of one context. Its handles live as long as the context's other handles (`own`). */
export class GuestIntrinsics {
  private readonly handles: QuickJSHandle[] = [];
  private readonly named = new Map<IntrinsicName, QuickJSHandle>();
  private guestObject: QuickJSHandle | undefined;

  /** Reads every built-in now: call it before the program runs. */
  constructor(
    private readonly context: QuickJSContext,
    private readonly own: (handle: QuickJSHandle) => QuickJSHandle,
  ) {
    const { handles, named } = this;
    for (const { parent, key, name } of READS) {
      const handle = own(context.getProp(parent === -1 ? context.global : (handles[parent] as QuickJSHandle), key));
      handles.push(handle);
      if (name !== undefined) named.set(name, handle);
    }
  }

  /** A captured built-in. */
  get(name: IntrinsicName): QuickJSHandle {
    return this.named.get(name) as QuickJSHandle;
  }

  /** The guest's `Intrinsics`: a frozen object without a prototype, made on first use. */
  guest(): QuickJSHandle {
    if (this.guestObject !== undefined) return this.guestObject;
    const { context } = this;
    const object = this.own(context.newObject(context.null));
    for (const [name, handle] of this.named) if (!HOST_ONLY.has(name)) context.setProp(object, name, handle);
    this.freeze(object);
    this.guestObject = object;
    return object;
  }

  /** `Object.freeze(target)` with the captured `freeze`. */
  freeze(target: QuickJSHandle): void {
    const { context } = this;
    context.unwrapResult(context.callFunction(this.get("freeze"), context.undefined, target)).dispose();
  }
}
