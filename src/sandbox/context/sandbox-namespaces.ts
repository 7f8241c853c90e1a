/**
 * The binding namespaces of a run's context (`github.list_issues(…)`): one frozen global object per namespace,
 * without a prototype, whose own members are host functions. Built through the handle API: nothing is compiled.
 * A call of a member a namespace does not have is named afterwards, from the error's position
 * (`missing-member.ts`), so reading members costs nothing more than an object's property read.
 */
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import { memberPath } from "../codec/codec-validation.js";
import type { GuestIntrinsics } from "./guest-intrinsics.js";
import type { SessionBinding } from "../quickjs/session-types.js";

/** What the namespaces need from the run. */
export interface NamespaceHost {
  context: QuickJSContext;
  intrinsics: GuestIntrinsics;
  /** A member was called: `args` is its argument (undefined when none). Returns the promise handle. */
  call(ns: number, fn: number, path: string, args: QuickJSHandle | undefined): QuickJSHandle;
}

/** Defines the namespaces as globals (non-writable, non-configurable, not enumerable). */
export function installNamespaces(host: NamespaceHost, bindings: readonly SessionBinding[]): void {
  const { context, intrinsics } = host;
  bindings.forEach((binding, ns) => {
    const namespace = context.newObject(context.null);
    binding.functions.forEach((name, fn) => {
      const path = `${memberPath(binding.global, name)} arguments`;
      const member = context.newFunction(name, (args) => host.call(ns, fn, path, args));
      context.defineProp(namespace, name, { value: member, enumerable: true, configurable: false });
      member.dispose();
    });
    intrinsics.freeze(namespace);
    context.defineProp(context.global, binding.global, { value: namespace, configurable: false, enumerable: false });
    namespace.dispose();
  });
}
