/**
 * Retries of `-32042` answers as a serverless deployment gets them: two processes serving the built package's
 * `createCodemodeMcpHandler` (`sessions: false`, `approvalLinks`) over one journal file, MCP SDK clients of the same
 * user on each, and the person deciding in a third runtime. The retry names its call by the retry id the server
 * minted (the elicitation id): retries racing on both instances all get the result and nothing runs twice; a retry
 * after 55 other runs of the user still gets it; two conversations sending the same program get two executions.
 * The program notes a line (no approval) before it buys: a second run would show as a second note.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";
import { jsonSchema, tool } from "ai";
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCodemodeRuntime, type CodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { connector } from "../../src/connectors/connector.js";
import { listeningUrl } from "./support/listening-url.js";

const INSTANCE = fileURLToPath(new URL("./fixtures/link-handler.mjs", import.meta.url));
const SECRET = "link-retry-test-secret-0123456789abcdef";
/** How long a retry waits on the instances for the person's decision. */
const WAIT_MS = 60_000;
/** Notes `item`, then buys it (the purchase needs approval). */
const NOTE_AND_BUY = (item: string) =>
  `async () => { await shop.note({ text: ${JSON.stringify(item)} }); return shop.buy({ item: ${JSON.stringify(item)} }); }`;

function stopInstance(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** The paused call's `-32042` error: its retry id (the elicitation id) and the execution its message names. */
async function paused(call: Promise<unknown>): Promise<{ retryId: string; executionId: string }> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UrlElicitationRequiredError);
  const { elicitations, message } = error as UrlElicitationRequiredError;
  const retryId = elicitations[0]?.elicitationId ?? "";
  expect(message).toContain(`"retry": ${JSON.stringify(retryId)}`);
  return { retryId, executionId: /Execution (\S+) paused/.exec(message)?.[1] ?? "" };
}

describe("-32042 retries on two serverless instances over one journal", () => {
  let folder: string;
  let ledger: string;
  let decider: CodemodeRuntime;
  const instances: Array<{ child: ChildProcess; url: string }> = [];
  const clients: Client[] = [];

  /** An MCP SDK client of `user` on instance `index` (a conversation of its own). */
  async function clientOn(index: number, user = "ada"): Promise<Client> {
    const client = new Client({ name: `retry-${user}-${index}`, version: "1" }, { capabilities: {} });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(instances[index]!.url), {
        requestInit: { headers: { "x-user": user } },
      }),
    );
    clients.push(client);
    return client;
  }

  const call = (client: Client, code: string, retry?: string) =>
    client.callTool({ name: "codemode", arguments: retry === undefined ? { code } : { code, retry } }, undefined, {
      timeout: WAIT_MS * 2,
    });

  const ledgerLines = (text: string): string[] =>
    existsSync(ledger)
      ? readFileSync(ledger, "utf8")
          .split("\n")
          .filter((line) => line.endsWith(` ${text}`))
      : [];

  const executionsOf = async (code: string) =>
    (await decider.executions(200, { scope: "ada" })).filter((listed) => listed.code === code);

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "codemode-mcp-link-retry-"));
    ledger = join(folder, "ledger.txt");
    const database = join(folder, "codemode.db");
    const started = await Promise.all(
      [0, 1].map(() =>
        listeningUrl(
          spawn(process.execPath, [INSTANCE, database, ledger, SECRET, String(WAIT_MS)], {
            stdio: ["pipe", "pipe", "pipe"],
          }),
          "the instance",
        ),
      ),
    );
    instances.push(...started);
    const origin = new URL(started[0]!.url).origin;
    await Promise.all(
      started.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            child.stdout?.on("data", (chunk: Buffer) => {
              if (chunk.toString().includes("ready")) resolve();
            });
            child.stdin?.write(`${origin}\n`);
          }),
      ),
    );
    // The person's side (the app's inspector): the same connectors over the same journal.
    const text = jsonSchema<{ text: string }>({ type: "object", properties: { text: { type: "string" } } });
    const item = jsonSchema<{ item: string }>({ type: "object", properties: { item: { type: "string" } } });
    const shop = connector({
      note: tool({
        inputSchema: text,
        execute: async ({ text: line }) => {
          appendFileSync(ledger, `${process.pid} note ${line}\n`);
          return "noted";
        },
      }),
      buy: tool({
        inputSchema: item,
        needsApproval: true,
        execute: async ({ item: bought }) => {
          appendFileSync(ledger, `${process.pid} ${bought} x1\n`);
          return `bought 1 ${bought}`;
        },
      }),
    });
    decider = createCodemodeRuntime({ connectors: { shop }, store: `file:${database}` });
  });

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await Promise.all(instances.map(({ child }) => stopInstance(child)));
    await decider?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("retries racing on both instances, before and after the decision, all get the result; nothing runs twice", async () => {
    const [one, two] = [await clientOn(0), await clientOn(1)];
    const listed = await one.listTools();
    expect(listed.tools.find((found) => found.name === "codemode")?.inputSchema.properties).toHaveProperty("retry");

    const code = NOTE_AND_BUY("tea");
    const { retryId, executionId } = await paused(call(one, code));
    expect(ledgerLines("note tea")).toHaveLength(1);
    // Two retries in flight at once, one per instance, while the person decides.
    const waiting = [call(one, code, retryId), call(two, code, retryId)];
    await decider.approve({ executionId, scope: "ada", decidedBy: "ada" });
    // And two more arriving together once it is decided.
    const results = await Promise.all([...waiting, call(two, code, retryId), call(one, code, retryId)]);
    for (const result of results)
      expect(result.structuredContent).toMatchObject({ status: "completed", executionId, result: "bought 1 tea" });

    expect(await executionsOf(code)).toHaveLength(1);
    expect(ledgerLines("note tea")).toHaveLength(1);
    expect(ledgerLines("tea x1")).toHaveLength(1);
  });

  it("a retry after 55 other programs of the same user gets the approved result and starts nothing", async () => {
    const [one, two] = [await clientOn(0), await clientOn(1)];
    const code = NOTE_AND_BUY("jam");
    const { retryId, executionId } = await paused(call(one, code));
    await decider.approve({ executionId, scope: "ada" });
    for (let index = 0; index < 55; index += 1) {
      const other = await call(index % 2 === 0 ? one : two, `async () => ${index}`);
      expect(other.structuredContent).toMatchObject({ status: "completed", result: index });
    }
    const retried = await call(two, code, retryId);
    expect(retried.structuredContent).toMatchObject({ status: "completed", executionId, result: "bought 1 jam" });
    expect(await executionsOf(code)).toHaveLength(1);
    expect(ledgerLines("note jam")).toHaveLength(1);
    expect(ledgerLines("jam x1")).toHaveLength(1);
  });

  it("two conversations of one user sending the same program get two executions, each retried on its own", async () => {
    const [first, second] = [await clientOn(0), await clientOn(1)];
    const code = NOTE_AND_BUY("honey");
    const mine = await paused(call(first, code));
    const theirs = await paused(call(second, code));
    expect(theirs.executionId).not.toBe(mine.executionId);
    expect(theirs.retryId).not.toBe(mine.retryId);
    expect(await executionsOf(code)).toHaveLength(2);

    await decider.approve({ executionId: mine.executionId, scope: "ada" });
    await decider.reject({ executionId: theirs.executionId, scope: "ada", reason: "only one jar" });
    const approved = await call(second, code, mine.retryId);
    expect(approved.structuredContent).toMatchObject({ executionId: mine.executionId, status: "completed" });
    const rejected = await call(first, code, theirs.retryId);
    expect(rejected.structuredContent).toMatchObject({ executionId: theirs.executionId, status: "rejected" });
    // Another user's retry of ada's id reads nothing and runs nothing.
    const bob = await clientOn(0, "bob");
    const refused = await call(bob, code, mine.retryId);
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/Nothing ran/);
    expect(
      await bob.callTool({ name: "codemode_outcome", arguments: { executionId: mine.executionId } }),
    ).toMatchObject({ isError: true });
    expect(ledgerLines("note honey")).toHaveLength(2);
    expect(ledgerLines("honey x1")).toHaveLength(1);
  });
});
