/**
 * `node:crypto`, loaded at its first use. A static import loads it with the package (~5 ms of a cold start before
 * the sandbox worker can even be started); the hashes and tokens that need it come later, if at all, while the
 * worker boots. Ids use `globalThis.crypto.randomUUID`, which Node also loads on first use.
 */
import { createRequire } from "node:module";

let loaded: typeof import("node:crypto") | undefined;

/** The `node:crypto` module (loaded once, on the first call). */
export function nodeCrypto(): typeof import("node:crypto") {
  loaded ??= createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  return loaded;
}
