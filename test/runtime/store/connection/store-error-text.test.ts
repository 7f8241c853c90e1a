/**
 * A store's credentials never reach a model, a tool output, a thrown error or the CLI, and a database's (or a
 * proxy's) error page is not quoted whole: the password of `https://user:<password>@host`, the auth token, an
 * `authToken=` parameter and an `Authorization` header echoed in a body are redacted, and every store error is cut
 * to a few hundred characters. Real servers on 127.0.0.1: the Hrana test server answering with hostile pages.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCodemodeRuntime } from "../../../../src/ai/create-codemode-runtime.js";
import { StoreError } from "../../../../src/errors/store-error.js";
import { createDurableRuntime } from "../../../../src/runtime/durable-runtime.js";
import type { StoreOption } from "../../../../src/runtime/store/connection/open-store.js";
import {
  MAX_STORE_ERROR_CHARS,
  storeErrorText,
  storeSecrets,
} from "../../../../src/runtime/store/connection/store-error-text.js";
import { cli } from "../../../cli/cli-support.js";
import { startHranaServer, type HranaServer } from "../../../support/hrana-server.js";
import { sharedExecutor } from "../../runtime-fixture.js";

/** Shaped like Turso's tokens (a JWT), so no pattern is needed to find it: the configuration names it. */
const TOKEN = "eyJhbGciOiJFZERTQSJ9.eyJhIjoicnciLCJpYXQiOjE3MDB9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg";
const PASSWORD = "hunter2-correct-horse";
/** Where no error may go past: a few hundred characters of quoted detail plus the advice around it. */
const MAX_MESSAGE_CHARS = 2_000;

let folder = "";
let hrana: HranaServer;
let databases = 0;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "codemode-store-error-text-"));
  hrana = await startHranaServer({ path: join(folder, "db.sqlite") });
});
afterAll(async () => {
  await hrana.close();
  rmSync(folder, { recursive: true, force: true });
});

/** A 1 MB proxy page that quotes the request's headers at its start. */
function echoingPage(request: { headers: Record<string, unknown> }): string {
  return `<html><body>Bad gateway. Request headers: ${JSON.stringify(request.headers)} ${"<p>padding</p>".repeat(70_000)}`;
}

/** Everything a run, an approval, a listing and the tool's model view say about a broken store. */
async function everythingSaid(store: StoreOption): Promise<string[]> {
  const runtime = createCodemodeRuntime({ store, executor: sharedExecutor(), _internal: { env: {} } });
  try {
    const tool = runtime.tool({ progress: false });
    const output = await tool.execute!({ code: "1" }, { toolCallId: "t1", messages: [], context: undefined });
    expect(output).toMatchObject({ status: "error", kind: "store" });
    const modelView = await tool.toModelOutput!({ toolCallId: "t1", input: { code: "1" }, output: output as never });
    const approved = await runtime.approve({ executionId: "e-1" });
    expect(approved).toMatchObject({ status: "error", kind: "store" });
    const thrown = await runtime.executions().catch((error: unknown) => error);
    expect(StoreError.isInstance(thrown)).toBe(true);
    const messages = [(output as { error: string }).error, (approved as { error: string }).error];
    for (const message of [...messages, (thrown as Error).message])
      expect(message.length).toBeLessThan(MAX_MESSAGE_CHARS);
    return [
      ...messages,
      JSON.stringify(output),
      JSON.stringify(modelView),
      JSON.stringify(approved),
      // The whole thrown error as a log prints it, its causes included.
      inspect(thrown, { depth: 10 }),
    ];
  } finally {
    await runtime.close();
  }
}

describe("store errors are redacted and bounded", () => {
  it("a 1 MB error page that echoes the Authorization header (the store's own HTTP client)", async () => {
    hrana.injectFault({ kind: "status", status: 502, body: echoingPage }, { times: Number.POSITIVE_INFINITY });
    try {
      const said = await everythingSaid({ url: hrana.databaseUrl(`echo${++databases}`), authToken: TOKEN });
      for (const text of said) expect(text).not.toContain(TOKEN);
      expect(said[0]).toContain("HTTP status 502");
      expect(said[0]).toContain("more characters cut");
      expect(said.at(-1)!.length).toBeLessThan(20_000);
    } finally {
      hrana.clearFaults();
    }
  });

  it("the token in an authToken= parameter, echoed back (@libsql/client's HTTP transport)", async () => {
    hrana.injectFault({ kind: "status", status: 500, body: echoingPage }, { times: Number.POSITIVE_INFINITY });
    try {
      const url = `${hrana.databaseUrl(`param${++databases}`)}?authToken=${TOKEN}`;
      const said = await everythingSaid({ url });
      for (const text of said) expect(text).not.toContain(TOKEN);
      expect(said[0]).toContain("HTTP status 500");
    } finally {
      hrana.clearFaults();
    }
  });

  it("the password of https://user:<password>@host, which libSQL over HTTP cannot send", async () => {
    const url = hrana.databaseUrl(`userinfo${++databases}`).replace("http://", `http://admin:${PASSWORD}@`);
    const said = await everythingSaid({ url, authToken: TOKEN });
    for (const text of said) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(TOKEN);
    }
    expect(said[0]).toContain("carries a user and password (user:password@)");
    expect(said[0]).toContain("pass the database token as authToken");
  });

  it("a URL with a password that no driver opens is refused at construction without it", () => {
    for (const store of [`postgres://admin:${PASSWORD}@db.example.com/app`, `libsql://admin:${PASSWORD}@bad host`]) {
      const thrown = (() => {
        try {
          createDurableRuntime({ store, executor: sharedExecutor() });
        } catch (error) {
          return error;
        }
        return undefined;
      })();
      expect(thrown).toBeInstanceOf(Error);
      expect(inspect(thrown, { depth: 10 })).not.toContain(PASSWORD);
    }
  });

  it("the CLI prints neither the password nor the token", async () => {
    hrana.injectFault({ kind: "status", status: 502, body: echoingPage }, { times: Number.POSITIVE_INFINITY });
    try {
      const echoed = await cli(["executions", "--store", hrana.databaseUrl(`cli${++databases}`)], {
        now: 0,
        cwd: folder,
        env: { TURSO_AUTH_TOKEN: TOKEN },
      });
      expect(echoed.code).not.toBe(0);
      expect(echoed.stderr).toContain("HTTP status 502");
      expect(`${echoed.stdout}${echoed.stderr}`).not.toContain(TOKEN);
      expect(echoed.stderr.length).toBeLessThan(MAX_MESSAGE_CHARS);
      const url = hrana.databaseUrl(`cli${++databases}`).replace("http://", `http://admin:${PASSWORD}@`);
      const withPassword = await cli(["executions", "--store", url], { now: 0, cwd: folder });
      expect(withPassword.code).not.toBe(0);
      expect(`${withPassword.stdout}${withPassword.stderr}`).not.toContain(PASSWORD);
    } finally {
      hrana.clearFaults();
    }
  });
});

describe("storeErrorText", () => {
  it("redacts the configuration's secrets and credentials in recognisable forms", () => {
    const secrets = storeSecrets({
      url: `libsql://admin:${PASSWORD}@db.turso.io?authToken=abc123def`,
      authToken: TOKEN,
    });
    const text = storeErrorText(
      `failed: libsql://admin:${PASSWORD}@db.turso.io?authToken=abc123def ${TOKEN} ` +
        `${encodeURIComponent(PASSWORD)} "authorization":"Bearer other-secret-value" Authorization: Basic dXNlcjpwYXNz ` +
        "Bearer yet-another-token-value https://u:p@proxy.example.com token=zzzzzzzz",
      secrets,
    );
    for (const secret of [PASSWORD, TOKEN, "abc123def", "other-secret-value", "dXNlcjpwYXNz", "yet-another-token"])
      expect(text).not.toContain(secret);
    expect(text).not.toContain("u:p@");
    expect(text).not.toContain("zzzzzzzz");
    expect(text).toContain("db.turso.io");
  });

  it("cuts a long text to its bound and says how much was cut", () => {
    const text = storeErrorText("x".repeat(1_000_000));
    expect(text.length).toBeLessThanOrEqual(MAX_STORE_ERROR_CHARS + 40);
    expect(text).toContain("more characters cut");
    expect(storeErrorText("SQLITE_BUSY: database is locked")).toBe("SQLITE_BUSY: database is locked");
  });
});
