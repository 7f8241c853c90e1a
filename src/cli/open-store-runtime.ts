/**
 * The runtime the CLI opens on a store when no `--runtime` module is given: the same
 * store resolution as the runtime (`--store`, else `CODEMODE_DATABASE_URL`, else
 * `TURSO_DATABASE_URL` + `TURSO_AUTH_TOKEN`, else `file:.codemode/codemode.db`), no
 * connectors. A local database file that does not exist is reported, not created.
 */
import { messageOf } from "../shared/message-of.js";
import { existsSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { createCodemodeRuntime, type CodemodeRuntime } from "../ai/create-codemode-runtime.js";
import {
  defaultStoreOptions,
  localDatabasePath,
  type CodemodeStoreOptions,
  redactStoreUrl,
} from "../runtime/store/connection/open-store.js";

/** The outcome of opening the store. */
export type OpenedStoreRuntime =
  | {
      ok: true;
      runtime: CodemodeRuntime;
      store: CodemodeStoreOptions;
      /** The store's URL without credentials or parameters, for messages. */
      label: string;
    }
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

/** Local database files worth suggesting: `*.db` in `.codemode/` and in `cwd` (an app's own name, e.g. `example.db`). */
function nearbyDatabases(cwd: string): string[] {
  const found: string[] = [];
  for (const dir of [join(cwd, ".codemode"), cwd]) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names.sort()) if (name.endsWith(".db")) found.push(relative(cwd, join(dir, name)));
  }
  return found;
}

/** Where the CLI looked, and how to point it elsewhere. */
function missingDatabase(
  absolute: string,
  url: string,
  store: string | undefined,
  env: Record<string, string | undefined>,
  cwd: string,
): string {
  const given =
    store !== undefined
      ? `--store ${url}`
      : env["CODEMODE_DATABASE_URL"]
        ? `CODEMODE_DATABASE_URL=${url}`
        : env["TURSO_DATABASE_URL"]
          ? `TURSO_DATABASE_URL=${url}`
          : "the default: no --store, and neither CODEMODE_DATABASE_URL nor TURSO_DATABASE_URL is set";
  const nearby = nearbyDatabases(cwd).filter((path) => resolve(cwd, path) !== absolute);
  const found =
    nearby.length === 0
      ? ` No other database file (*.db) in ${cwd} or its .codemode folder.`
      : ` Found here: ${nearby.join(", ")} — e.g. ai-codemode executions --store file:${nearby[0]}.`;
  return (
    `No codemode database at ${absolute} (${given}).${found} ` +
    "Point the CLI at the app's database with --store <url> or CODEMODE_DATABASE_URL (the URL the app's runtime uses), " +
    "or give the app's runtime module with --runtime."
  );
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
    if (!existsSync(absolute)) return { ok: false, error: missingDatabase(absolute, resolved.url, store, env, cwd) };
    options = { url: `file:${absolute.replace(/[%?#]/g, (char) => encodeURIComponent(char))}` };
  }
  try {
    const runtime = createCodemodeRuntime({
      store: options,
      ...(name === undefined ? {} : { name }),
      _internal: { env, now },
    });
    return { ok: true, runtime, store: options, label: redactStoreUrl(options.url) };
  } catch (error) {
    return { ok: false, error: messageOf(error) };
  }
}
