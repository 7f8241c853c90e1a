/**
 * A remote store that cannot be reached is reported with its host and the cause read from undici's `cause` chain
 * (DNS, refused, TLS, a refused token), says when no token was sent, and says "try again later" only for what may
 * pass — in the runtime's outputs, its listing errors and the CLI.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreConfigurationError } from "../../../../src/errors/store-configuration-error.js";
import { StoreError } from "../../../../src/errors/store-error.js";
import { createDurableRuntime } from "../../../../src/runtime/durable-runtime.js";
import type { StoreOption } from "../../../../src/runtime/store/connection/open-store.js";
import { explainStoreError } from "../../../../src/runtime/store/connection/explain-store-error.js";
import { cli } from "../../../cli/cli-support.js";
import { startHranaServer, type HranaServer } from "../../../support/hrana-server.js";
import { sharedExecutor } from "../../runtime-fixture.js";

let folder = "";
let hrana: HranaServer;
/** A loopback port nothing listens on (a server bound it, then closed). */
let closedPort = 0;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "codemode-unreachable-"));
  hrana = await startHranaServer({ path: join(folder, "db.sqlite"), authToken: "right-token" });
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});
afterAll(async () => {
  await hrana.close();
  rmSync(folder, { recursive: true, force: true });
});

/** The first run's error and the listing's thrown message, on a fresh runtime. */
async function firstFailure({ store, env = {} }: { store?: StoreOption; env?: Record<string, string> }) {
  const runtime = createDurableRuntime({
    ...(store === undefined ? {} : { store }),
    executor: sharedExecutor(),
    _internal: { env },
  });
  try {
    const executed = await runtime.execute({ code: "1" });
    expect(executed).toMatchObject({ status: "error", kind: "store" });
    const listed = await runtime.executions().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(StoreError.isInstance(listed)).toBe(true);
    return { error: (executed as { error: string }).error, listed: (listed as Error).message };
  } finally {
    await runtime.close();
  }
}

describe("a remote store that cannot be reached", () => {
  it("a refused port on loopback names the host and port and the refusal, not 'try again later'", async () => {
    const { error, listed } = await firstFailure({ store: { url: `http://127.0.0.1:${closedPort}`, authToken: "t" } });
    expect(error).toContain(`The database at http://127.0.0.1:${closedPort} could not be reached`);
    expect(error).toContain("the connection was refused");
    expect(error).toContain("ECONNREFUSED");
    expect(error).not.toMatch(/fetch failed|try again later/i);
    expect(listed).toContain("ECONNREFUSED");
  });

  it("an unresolvable host names the host and the DNS failure", async () => {
    const { error } = await firstFailure({ store: { url: "libsql://db.nowhere.invalid", authToken: "t" } });
    expect(error).toContain("The database at libsql://db.nowhere.invalid could not be reached");
    expect(error).toContain("the host name could not be resolved");
    expect(error).toMatch(/ENOTFOUND|EAI_AGAIN/);
    expect(error).not.toContain("auth token");
  });

  it("a libsql:// URL without a token says so, for the store option and for TURSO_DATABASE_URL", async () => {
    const option = await firstFailure({ store: "libsql://db.nowhere.invalid" });
    expect(option.error).toContain("could not be reached");
    expect(option.error).toContain("The store option has no auth token: pass { url, authToken }");
    const env = await firstFailure({ env: { TURSO_DATABASE_URL: "libsql://db.nowhere.invalid" } });
    expect(env.error).toContain("TURSO_AUTH_TOKEN is not set");
    expect(env.listed).toContain("TURSO_AUTH_TOKEN is not set");
  });

  it("a token the Hrana server refuses (HTTP 401) is a configuration error naming the variable", async () => {
    const wrong = await firstFailure({ env: { TURSO_DATABASE_URL: hrana.url, TURSO_AUTH_TOKEN: "wrong-token" } });
    expect(wrong.error).toContain(`The database at ${hrana.url} refused the credentials (HTTP 401`);
    expect(wrong.error).toContain("Check TURSO_AUTH_TOKEN");
    expect(wrong.error).not.toMatch(/wrong-token|try again later/i);
    const none = await firstFailure({ env: { TURSO_DATABASE_URL: hrana.url } });
    expect(none.error).toContain("TURSO_AUTH_TOKEN is not set");
  });

  it("TLS spoken to a server without it names the handshake and the scheme", async () => {
    const { error } = await firstFailure({ store: { url: hrana.url.replace("http:", "https:"), authToken: "t" } });
    expect(error).toContain("the TLS handshake failed");
    expect(error).toContain("a server without TLS needs http://");
  });

  it("only a failure that may pass keeps 'try again later'", () => {
    const target = {
      kind: "client",
      url: "libsql://db.example.com",
      authToken: "t",
      local: false,
      requestTimeoutMs: 10_000,
    } as const;
    const reset = new TypeError("fetch failed", {
      cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
    });
    const explained = explainStoreError(reset, { ...target, source: "option", key: "k" });
    expect(StoreError.isInstance(explained)).toBe(true);
    expect(StoreConfigurationError.isInstance(explained)).toBe(false);
    expect((explained as Error).message).toContain("the connection was reset (ECONNRESET: read ECONNRESET)");
    const refused = new TypeError("fetch failed", {
      cause: new AggregateError([Object.assign(new Error("connect ECONNREFUSED ::1:8080"), { code: "ECONNREFUSED" })]),
    });
    const explainedRefused = explainStoreError(refused, { ...target, source: "option", key: "k" });
    expect(StoreConfigurationError.isInstance(explainedRefused)).toBe(true);
  });

  it("the CLI names the host and the cause", async () => {
    const { code, stderr } = await cli(["executions", "--store", `http://127.0.0.1:${closedPort}`], {
      now: 0,
      cwd: folder,
    });
    expect(code).not.toBe(0);
    expect(stderr).toContain(`http://127.0.0.1:${closedPort} could not be reached`);
    expect(stderr).toContain("ECONNREFUSED");
    expect(stderr).not.toContain("fetch failed");
  });
});
