/**
 * The store's own Hrana client says on the wire what `@libsql/client` says: the same statements, run through each
 * against the Hrana test server behind a recording relay, produce the same pipeline requests (stream requests,
 * SQL, argument encodings, transaction steps and conditions). What the maintained driver sends to Turso, ours sends.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type InStatement } from "@libsql/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { HranaHttpClient } from "../../../../src/runtime/store/connection/hrana-http-client.js";
import { startHranaServer, type HranaServer } from "../../../support/hrana-server.js";

let folder = "";
let server: HranaServer;
let relay: Server;
let relayUrl = "";
/** Pipeline request bodies the relay saw, by database name. */
const seen = new Map<string, unknown[]>();

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "codemode-hrana-wire-"));
  server = await startHranaServer({ path: join(folder, "root.db"), authToken: "token" });
  relay = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const path = request.url ?? "/";
    const database = /^\/db\/([\w-]+)\//.exec(path)?.[1] ?? "";
    if (path.endsWith("/pipeline")) {
      const parsed = JSON.parse(body.toString("utf8")) as { baton?: unknown; requests: unknown };
      seen.set(database, [...(seen.get(database) ?? []), parsed.requests]);
    }
    const answer = await fetch(`${server.url}${path}`, {
      method: request.method ?? "GET",
      headers: { authorization: request.headers.authorization ?? "", "content-type": "application/json" },
      ...(request.method === "POST" ? { body } : {}),
    });
    response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "text/plain" });
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => relay.close(() => resolve()));
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * The requests with what is only spelling removed: statements stored once (`store_sql`, `sql_id`) read as their SQL,
 * empty `args`/`named_args` as absent, and `close_sql` dropped. Everything with a meaning stays.
 */
function normalize(pipelines: unknown[]): Json {
  const stored = new Map<number, string>();
  const statement = (value: Json): Json => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    const out: { [key: string]: Json } = {};
    for (const [key, field] of Object.entries(value)) {
      if ((key === "args" || key === "named_args") && Array.isArray(field) && field.length === 0) continue;
      if (key === "sql_id") out["sql"] = stored.get(field as number) ?? `unknown sql_id ${String(field)}`;
      else out[key] = walk(field);
    }
    return out;
  };
  const walk = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== "object") return value;
    if ("stmt" in value)
      return {
        ...Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)])),
        stmt: statement(value["stmt"] as Json),
      };
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
  };
  return (pipelines as Json[][]).map((requests) =>
    requests.flatMap((request) => {
      const typed = request as { [key: string]: Json };
      if (typed["type"] === "store_sql") {
        stored.set(typed["sql_id"] as number, typed["sql"] as string);
        return [];
      }
      if (typed["type"] === "close_sql") return [];
      return [walk(request)];
    }),
  );
}

/** What the store sends: DDL, one statement with every argument type, write and read batches, a failing batch. */
async function conversation(client: {
  execute(statement: InStatement): Promise<unknown>;
  batch(statements: InStatement[], mode: "write" | "read"): Promise<unknown>;
}): Promise<void> {
  await client.execute("CREATE TABLE t (i INTEGER PRIMARY KEY, r REAL, s TEXT, b BLOB, n TEXT, g INTEGER)");
  await client.execute({
    sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)",
    args: [1, 1.5, "text", new Uint8Array([1, 2, 3]), null, 9007199254740993n],
  });
  await client.execute({ sql: "SELECT i, r, s, b, n FROM t WHERE i = :i", args: { i: 1 } });
  await client.batch(
    [
      { sql: "INSERT INTO t (i, s) VALUES (?, ?)", args: [2, "two"] },
      { sql: "UPDATE t SET r = ? WHERE i = ?", args: [2.5, 2] },
    ],
    "write",
  );
  await client.batch(["SELECT COUNT(*) FROM t", { sql: "SELECT s FROM t WHERE i = ?", args: [2] }], "read");
  await client
    .batch(
      [
        { sql: "INSERT INTO t (i) VALUES (?)", args: [3] },
        { sql: "INSERT INTO t (i) VALUES (?)", args: [1] },
      ],
      "write",
    )
    .catch(() => undefined);
}

it("sends the pipeline requests @libsql/client sends, statement for statement", async () => {
  const theirs = createClient({ url: `${relayUrl}/db/theirs/`, authToken: "token" });
  await conversation(theirs);
  theirs.close();
  const ours = new HranaHttpClient(`${relayUrl}/db/ours/`, "token");
  await conversation(ours);
  ours.close();

  const sent = (name: string) => normalize(seen.get(name) ?? []);
  expect(seen.get("ours")?.length).toBeGreaterThan(0);
  expect(sent("ours")).toEqual(sent("theirs"));
});
