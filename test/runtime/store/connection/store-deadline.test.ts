/**
 * A remote store that stops answering, against the runtime: a database that never answers, or sends headers and
 * never ends the body, ends `execute`, `approve`, `reject` and the listings at the store's request deadline with
 * a `store` error, and the abandoned request's connection is closed (nothing keeps waiting). Real servers on
 * 127.0.0.1: the Hrana test server with its `silent` and `stall-body` faults, and a WebSocket endpoint that never
 * completes its handshake.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreError } from "../../../../src/errors/store-error.js";
import { createDurableRuntime } from "../../../../src/runtime/durable-runtime.js";
import { ForeignStoreClient } from "../../../../src/runtime/store/connection/foreign-store-client.js";
import { createMockConnector } from "../../../../src/test/index.js";
import { startHranaServer, type HranaServer } from "../../../support/hrana-server.js";
import { sharedExecutor } from "../../runtime-fixture.js";

const TOKEN = "store-token-0123456789";
/**
 * Short, so a test waits little, yet long enough that a loopback request on a busy machine never reaches it
 * before the database goes silent.
 */
const DEADLINE_MS = 1_500;

let folder = "";
let hrana: HranaServer;
let databases = 0;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "codemode-store-deadline-"));
  hrana = await startHranaServer({ path: join(folder, "db.sqlite"), authToken: TOKEN });
});
afterAll(async () => {
  await hrana.close();
  rmSync(folder, { recursive: true, force: true });
});

function deploy(onStatus: () => void = () => {}) {
  return createMockConnector("deploy", {
    methods: {
      status: {
        result: () => {
          onStatus();
          return "green";
        },
      },
      ship: { needsApproval: true, result: (args: unknown) => ({ shipped: args }) },
    },
  });
}

const CODE = "async () => { const s = await deploy.status({}); return deploy.ship({ s }); }";

function runtimeOn(url: string, connector = deploy()) {
  return createDurableRuntime({
    store: { url, authToken: TOKEN, requestTimeoutMs: DEADLINE_MS },
    connectors: { deploy: connector },
    executor: sharedExecutor(),
    _internal: { env: {} },
  });
}

/** Polls `condition` every 20 ms for up to 10 s (generous: the machine may be busy). */
async function eventually(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) throw new Error("the condition did not hold within 10 s");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function expectDeadline(output: unknown): void {
  expect(output).toMatchObject({ status: "error", kind: "store" });
  expect((output as { error: string }).error).toContain(`did not answer within ${DEADLINE_MS} ms`);
}

describe("a remote store that never answers", () => {
  it("ends approve, reject, execute and the listings with a store error, and closes the abandoned requests", async () => {
    const runtime = runtimeOn(hrana.databaseUrl(`silent${++databases}`));
    try {
      const first = await runtime.execute({ code: CODE });
      expect(first).toMatchObject({ status: "paused" });
      hrana.injectFault({ kind: "silent" }, { times: Number.POSITIVE_INFINITY });
      expectDeadline(await runtime.approve({ executionId: first.executionId }));
      expectDeadline(await runtime.reject({ executionId: first.executionId, reason: "no" }));
      expectDeadline(await runtime.execute({ code: "1" }));
      const listed = await runtime.executions().catch((error: unknown) => error);
      expect(StoreError.isInstance(listed)).toBe(true);
      expect((listed as Error).message).toContain(`did not answer within ${DEADLINE_MS} ms`);
      // The client closed every connection it gave up on: the server holds nothing.
      await eventually(() => hrana.unanswered === 0);
      // The database answering again, the paused execution is still there to approve.
      hrana.clearFaults();
      expect(await runtime.approve({ executionId: first.executionId })).toMatchObject({ status: "completed" });
    } finally {
      hrana.clearFaults();
      await runtime.close();
    }
  });

  it("a run whose database goes silent between two calls ends with a store error", async () => {
    const silence = () => hrana.injectFault({ kind: "silent" }, { times: Number.POSITIVE_INFINITY });
    const runtime = runtimeOn(hrana.databaseUrl(`midrun${++databases}`), deploy(silence));
    try {
      const output = await runtime.execute({ code: CODE });
      expect(output).toMatchObject({ status: "error", kind: "store" });
      expect((output as { error: string }).error).toContain(`did not answer within ${DEADLINE_MS} ms`);
      await eventually(() => hrana.unanswered === 0);
    } finally {
      hrana.clearFaults();
      await runtime.close();
    }
  });

  it("headers and then silence end at the deadline too", async () => {
    const runtime = runtimeOn(hrana.databaseUrl(`stall${++databases}`));
    try {
      expect(await runtime.execute({ code: "1" })).toMatchObject({ status: "completed" });
      hrana.injectFault({ kind: "stall-body" }, { times: Number.POSITIVE_INFINITY });
      expectDeadline(await runtime.execute({ code: "2" }));
      await eventually(() => hrana.unanswered === 0);
    } finally {
      hrana.clearFaults();
      await runtime.close();
    }
  });

  it("a Client passed as the store is raced against the deadline", async () => {
    const client = createClient({ url: hrana.databaseUrl(`client${++databases}`), authToken: TOKEN });
    const guarded = new ForeignStoreClient(client, { requestTimeoutMs: DEADLINE_MS });
    try {
      hrana.injectFault({ kind: "silent" }, { times: Number.POSITIVE_INFINITY });
      await expect(guarded.execute("SELECT 1")).rejects.toThrow(`did not answer within ${DEADLINE_MS} ms`);
    } finally {
      hrana.clearFaults();
      client.close();
    }
  });
});

describe("a WebSocket store whose handshake is never answered", () => {
  let server: Server;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    server = createServer();
    // Takes the upgrade request and says nothing.
    server.on("upgrade", (_request, socket: Socket) => {
      sockets.add(socket);
      // An upgraded socket is half-open: the client's end is the sign it gave up.
      socket.once("end", () => socket.destroy());
      socket.once("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("ends execute at the deadline and drops the connection", async () => {
    const { port } = server.address() as AddressInfo;
    const runtime = runtimeOn(`ws://127.0.0.1:${port}`);
    try {
      expectDeadline(await runtime.execute({ code: "1" }));
      await eventually(() => sockets.size === 0);
    } finally {
      await runtime.close();
    }
  });
});
