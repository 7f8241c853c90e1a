/**
 * The runtime the CLI opens on a store when no `--runtime` module is given: the same
 * store resolution as the runtime (`--store`, else `CODEMODE_DATABASE_URL`, else
 * `TURSO_DATABASE_URL` + `TURSO_AUTH_TOKEN`, else `file:.codemode/codemode.db`), no
 * connectors. A local database file that does not exist is reported, not created.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { createCodemodeRuntime, type CodemodeRuntime } from "../ai/create-codemode-runtime.js";
import { defaultStoreOptions, localDatabasePath, type CodemodeStoreOptions } from "../runtime/store/open-store.js";

/** The outcome of opening the store. */
export type OpenedStoreRuntime =
  | { ok: true; runtime: CodemodeRuntime; store: CodemodeStoreOptions }
  | { ok: false; error: string };

/** Which store `--store` and the environment name. */
export function resolveCliStore(
  store: string | undefined,
  env: Record<string, string | undefined>,
): CodemodeStoreOptions {
  if (store === undefined) return defaultStoreOptions(env);
  const token = env["TURSO_AUTH_TOKEN"];
  return !store.startsWith("file:") && store !== ":memory:" && token !== undefined && token !== ""
    ? { url: store, authToken: token }
    : { url: store };
}

/** Opens a connector-less runtime on the resolved store (paths relative to `cwd`; `now` is its clock, for `expire`). */
export function openStoreRuntime({
  store,
  name,
  env,
  cwd,
  now,
}: {
  store: string | undefined;
  name: string | undefined;
  env: Record<string, string | undefined>;
  cwd: string;
  now: () => number;
}): OpenedStoreRuntime {
  const resolved = resolveCliStore(store, env);
  const path = resolved.authToken === undefined ? localDatabasePath(resolved.url) : undefined;
  let options = resolved;
  if (path !== undefined && path !== ":memory:") {
    const absolute = resolve(cwd, path);
    if (!existsSync(absolute)) {
      return {
        ok: false,
        error: `No codemode database at ${absolute} (store ${resolved.url}). Pass --store <url> or set CODEMODE_DATABASE_URL.`,
      };
    }
    options = { url: `file:${absolute.replace(/[%?#]/g, (char) => encodeURIComponent(char))}` };
  }
  try {
    const runtime = createCodemodeRuntime({
      store: options,
      ...(name === undefined ? {} : { name }),
      _internal: { env, now },
    });
    return { ok: true, runtime, store: options };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
