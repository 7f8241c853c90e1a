/**
 * Loads the comparison sandboxes of the executor benchmark. Each is a devDependency that may be
 * missing (isolated-vm compiles a native addon at install): a failed load returns the reason, and
 * the benchmark prints it instead of the row.
 */
import type * as IsolatedVmModule from "isolated-vm";
import type * as RunModule from "run";

/** The isolated-vm module. */
export type IsolatedVm = typeof IsolatedVmModule;
/** The `run` package. */
export type RunPackage = typeof RunModule;

function reason(error: unknown): string {
  return error instanceof Error ? (error.message.split("\n")[0] ?? error.message) : String(error);
}

/** isolated-vm, or why it could not be loaded. */
export async function loadIsolatedVm(): Promise<IsolatedVm | string> {
  try {
    const loaded = (await import("isolated-vm")) as IsolatedVm & { default?: IsolatedVm };
    return loaded.default ?? loaded;
  } catch (error) {
    return `isolated-vm could not be loaded (${reason(error)}); install it with its native build to compare.`;
  }
}

/** The `run` package, or why it could not be loaded. */
export async function loadRunPackage(): Promise<RunPackage | string> {
  try {
    return await import("run");
  } catch (error) {
    return `the run package could not be loaded (${reason(error)}).`;
  }
}
