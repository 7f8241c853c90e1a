import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDurableRuntime } from "../../../../src/runtime/durable-runtime.js";
import { StoreError } from "../../../../src/errors/store-error.js";
import type { StoreOption } from "../../../../src/runtime/store/connection/open-store.js";
import {
  authenticationStatus,
  explainStoreError,
  redactStoreUrl,
} from "../../../../src/runtime/store/connection/explain-store-error.js";
import { sharedExecutor } from "../../runtime-fixture.js";

/** A stand-in for Turso that answers every request with one HTTP status (port 0, loopback only). */
let server: Server;
let base = "";
const seen: Array<{ path: string | undefined; authorization: string | undefined }> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ path: request.url, authorization: request.headers.authorization });
    const status = Number(/^\/(\d{3})\//.exec(request.url ?? "")?.[1] ?? 500);
    request.resume();
    response
      .writeHead(status, { "content-type": "text/plain" })
      .end(status === 401 ? "Unauthorized" : "Forbidden or broken");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function firstRun({ store, env }: { store?: StoreOption; env?: Record<string, string> }) {
  const runtime = createDurableRuntime({
    ...(store === undefined ? {} : { store }),
    executor: sharedExecutor(),
    _internal: { env: env ?? {} },
  });
  try {
    const executed = await runtime.execute({ code: "1" });
    const approved = await runtime.approve({ executionId: "missing" });
    const listed = await runtime.executions().then(
      () => undefined,
      (error: unknown) => error,
    );
    return { executed, approved, listed };
  } finally {
    await runtime.close();
  }
}

describe("an authentication failure is a configuration error naming what to check", () => {
  it("TURSO_DATABASE_URL with a refused TURSO_AUTH_TOKEN (HTTP 401, through the store's HTTP client)", async () => {
    const { executed, approved, listed } = await firstRun({
      env: { TURSO_DATABASE_URL: `${base}/401/db`, TURSO_AUTH_TOKEN: "expired-token" },
    });
    expect(executed).toMatchObject({ status: "error", kind: "store" });
    const { error } = executed as { error: string };
    expect(error).toContain("refused the credentials (HTTP 401");
    expect(error).toContain("Check TURSO_AUTH_TOKEN");
    expect(error).toContain("trying again will not help");
    expect(error).not.toContain("Try again later");
    expect(error).not.toContain("expired-token");
    expect(approved).toMatchObject({ status: "error", kind: "store", error });
    expect(StoreError.isInstance(listed)).toBe(true);
    expect((listed as Error).message).toContain("Check TURSO_AUTH_TOKEN");
    // The token did travel: the server refused it, not its absence.
    expect(seen.some((request) => request.authorization === "Bearer expired-token")).toBe(true);
  });

  it("TURSO_DATABASE_URL without TURSO_AUTH_TOKEN says the variable is not set", async () => {
    const { executed } = await firstRun({ env: { TURSO_DATABASE_URL: `${base}/401/db` } });
    expect((executed as { error: string }).error).toContain("TURSO_AUTH_TOKEN is not set");
  });

  it("a store URL string without a token (the old README sample) says to pass { url, authToken }", async () => {
    const { executed } = await firstRun({ store: `${base}/403/db` });
    expect(executed).toMatchObject({ status: "error", kind: "store" });
    expect((executed as { error: string }).error).toContain("HTTP 403");
    expect((executed as { error: string }).error).toContain("pass { url, authToken }");
  });

  it("CODEMODE_DATABASE_URL names itself", async () => {
    const { executed } = await firstRun({ env: { CODEMODE_DATABASE_URL: `${base}/401/db` } });
    expect((executed as { error: string }).error).toContain("Check CODEMODE_DATABASE_URL");
  });

  it("a server failure stays a transient store failure", async () => {
    const { executed } = await firstRun({ store: { url: `${base}/500/db`, authToken: "t" } });
    expect(executed).toMatchObject({ status: "error", kind: "store" });
    expect((executed as { error: string }).error).toContain("Try again later");
    expect((executed as { error: string }).error).not.toContain("credentials");
  });
});

describe("a local file that cannot be written", () => {
  it("names the error code once (Node's message already starts with it) and the hint", () => {
    const denied = Object.assign(new Error("EACCES: permission denied, mkdir '/var/task/.codemode'"), {
      code: "EACCES",
    });
    const target = {
      kind: "embedded",
      path: "/var/task/.codemode/codemode.db",
      url: "file:.codemode/codemode.db",
      source: "default",
      createFolder: true,
      key: "/var/task/.codemode/codemode.db",
    } as const;
    const message = (explainStoreError(denied, target) as Error).message;
    expect(message).toContain("(EACCES: permission denied, mkdir '/var/task/.codemode');");
    expect(message).not.toContain("EACCES: EACCES");
    const driver = Object.assign(new Error("unable to open database file"), { code: "SQLITE_CANTOPEN" });
    expect((explainStoreError(driver, { ...target, source: "option" }) as Error).message).toContain(
      "(SQLITE_CANTOPEN: unable to open database file)",
    );
  });
});

describe("authenticationStatus", () => {
  it("finds 401/403 by status, code or message along the cause chain", () => {
    expect(authenticationStatus({ code: "SERVER_ERROR", cause: { status: 403 } })).toBe(403);
    expect(authenticationStatus(new Error("Unexpected server response: 401"))).toBe(401);
    expect(authenticationStatus({ code: "AUTH_JWT_EXPIRED" })).toBe(401);
    expect(authenticationStatus({ code: "SERVER_ERROR", cause: { status: 500 } })).toBeUndefined();
    expect(authenticationStatus(new Error("SQLITE_BUSY"))).toBeUndefined();
  });

  it("redacts credentials and parameters from URLs in messages", () => {
    expect(redactStoreUrl("libsql://user:pw@db.turso.io/x?authToken=secret")).toBe("libsql://db.turso.io/x");
    expect(redactStoreUrl("file:a.db?mode=ro")).toBe("file:a.db");
  });
});
