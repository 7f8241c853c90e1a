/**
 * The global through which the sandbox's trusted preludes reach the host (`codemode.step`, `search`,
 * `describe`, `run`, `fetch`). Defined here, below both layers, so the runtime binds it and connector names
 * are refused it from one constant.
 */
export const HOST_NAMESPACE = "__codemode_host";
