/**
 * Runtime tests over HTTP: one Hrana test server per test file
 * (test/support/hrana-server.ts), and a fresh database on it for every client,
 * reached through `@libsql/client`'s real HTTP transport as a Turso URL is.
 * `overHttp()` is the `vi.mock` factory that points the runtime fixture's
 * clients (and the default store of `testRuntime`) at the server, so an
 * existing suite runs unchanged over HTTP.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type Client } from "@libsql/client";
import { afterAll } from "vitest";
import { startHranaServer, type HranaServer } from "../support/hrana-server.js";
import type * as RuntimeFixture from "./runtime-fixture.js";

const folder = mkdtempSync(join(tmpdir(), "codemode-http-store-"));
/** The file's server (started when this module loads). */
export const hranaServer: HranaServer = await startHranaServer({ path: join(folder, "root.db") });
const clients: Client[] = [];
let databases = 0;

afterAll(async () => {
  for (const client of clients.splice(0)) client.close();
  await hranaServer.close();
  rmSync(folder, { recursive: true, force: true });
});

/** An `@libsql/client` Client on a fresh database of the file's server. */
export function httpClient(): Client {
  const client = createClient({ url: hranaServer.databaseUrl(`db${++databases}`) });
  clients.push(client);
  return client;
}

/** The runtime fixture with every store over HTTP (for `vi.mock("./runtime-fixture.js", …)`). */
export function overHttp(original: typeof RuntimeFixture): typeof RuntimeFixture {
  return {
    ...original,
    memoryClient: httpClient,
    memoryLibsqlClient: httpClient,
    testRuntime: (options = {}) => original.testRuntime({ store: httpClient(), ...options }),
  };
}
