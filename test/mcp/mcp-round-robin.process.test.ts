/**
 * A serverless deployment as a host runs it: two processes serving `createCodemodeMcpHandler` of the built
 * package (`sessions: false`, one journal file) behind a load balancer on loopback that sends every request
 * to the next instance. Driven by the MCP SDK's client over Streamable HTTP and by the official MCP
 * Inspector CLI, the two behave as one: the whole conversation works, and a program paused through one
 * instance, approved by a person in a third runtime, completes through the other, exactly once.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { type ChildProcess, execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { type RoundRobinProxy, startRoundRobinProxy } from "./support/round-robin-proxy.js";
import { approverRuntime, BUY, effects, startInstance, stopInstance } from "./support/task-instances.js";

const INSPECTOR = resolve(
  import.meta.dirname,
  "../../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
);

describe("two serverless instances behind a round-robin balancer behave as one", () => {
  let folder: string;
  let ledger: string;
  let approver: CodemodeRuntime;
  let balancer: RoundRobinProxy;
  const instances: Array<{ child: ChildProcess; url: string }> = [];
  const clients: Client[] = [];

  async function clientAs(user: string): Promise<Client> {
    const client = new Client({ name: `round-robin-${user}`, version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(balancer.url), { requestInit: { headers: { "x-user": user } } }),
    );
    clients.push(client);
    return client;
  }

  /** Runs `step` and returns its value with the instance that answered it (the one POST it sent). */
  async function answeredBy<T>(step: () => Promise<T>): Promise<{ value: T; instance: number }> {
    const from = balancer.requests.length;
    const value = await step();
    // The client's one GET after initialize (answered 405) may land anywhere in between.
    const posts = balancer.requests.slice(from).filter(({ method }) => method === "POST");
    expect(posts).toHaveLength(1);
    return { value, instance: posts[0]!.instance };
  }

  /**
   * The Inspector CLI as a person runs it (`mcp-inspector --cli <url> …`), as user ada; its JSON result.
   * Its requests (initialize, then the method) reach both instances.
   */
  async function inspector(args: string[]): Promise<Record<string, unknown>> {
    const home = join(folder, "inspector-home");
    mkdirSync(home, { recursive: true });
    const argv = [INSPECTOR, "--cli", balancer.url, "--transport", "http", "--header", "x-user: ada"];
    const from = balancer.requests.length;
    const output = await new Promise<Record<string, unknown>>((done, fail) => {
      execFile(
        process.execPath,
        [...argv, ...args, "--format", "json", "--quiet"],
        // Its catalog and stored credentials go under HOME: a folder of the test's.
        { env: { PATH: process.env["PATH"] ?? "", HOME: home }, timeout: 60_000 },
        (error, stdout, stderr) => {
          if (error !== null) fail(new Error(`mcp-inspector ${args.join(" ")} failed: ${stderr}${stdout}`));
          else done(JSON.parse(stdout) as Record<string, unknown>);
        },
      );
    });
    expect(new Set(balancer.requests.slice(from).map(({ instance }) => instance))).toEqual(new Set([0, 1]));
    return output;
  }

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "codemode-mcp-round-robin-"));
    ledger = join(folder, "ledger.txt");
    const database = join(folder, "codemode.db");
    instances.push(...(await Promise.all([startInstance(database, ledger), startInstance(database, ledger)])));
    balancer = await startRoundRobinProxy(instances.map(({ url }) => url));
    approver = approverRuntime(database, ledger);
  });

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await balancer?.close();
    await Promise.all(instances.map(({ child }) => stopInstance(child)));
    await approver?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("serves the whole conversation (initialize, list, search, describe, run) from whichever instance", async () => {
    const ada = await clientAs("ada");
    const first = await answeredBy(() => ada.listTools());
    const second = await answeredBy(() => ada.listTools());
    expect(second.instance).not.toBe(first.instance);
    expect(second.value).toEqual(first.value);
    expect(first.value.tools.map((listed) => listed.name)).toEqual([
      "codemode",
      "codemode_search",
      "codemode_describe",
      "codemode_outcome",
    ]);

    const search = await ada.callTool({ name: "codemode_search", arguments: { query: "price of an item" } });
    expect(JSON.stringify(search.content)).toContain("shop.price");
    const described = await ada.callTool({ name: "codemode_describe", arguments: { target: "shop.buy" } });
    expect(JSON.stringify(described.content)).toContain("item: string");
    const ran = await ada.callTool({
      name: "codemode",
      arguments: { code: 'async () => (await shop.price({ item: "tea" })) + (await shop.price({ item: "milk" }))' },
    });
    expect(ran.structuredContent).toMatchObject({ status: "completed", result: 7 });
    expect(balancer.served.every((count) => count > 0)).toBe(true);
  });

  it("tasks only: paused through one instance, approved by a person, tasks/result through the other returns it once", async () => {
    const ada = await clientAs("ada");
    const started = await answeredBy(() =>
      ada.request(
        { method: "tools/call", params: { name: "codemode", arguments: { code: BUY("tea") }, task: {} } },
        CreateTaskResultSchema,
      ),
    );
    const { task } = started.value;
    expect(task.status).toBe("input_required");
    // Polled on each instance in turn: the same task, from the journal.
    for (const _ of [0, 1]) {
      const polled = await answeredBy(() => ada.experimental.tasks.getTask(task.taskId));
      expect(polled.value).toMatchObject({ taskId: task.taskId, status: "input_required" });
    }

    // tasks/result waits on the instance the balancer picks while the person decides in a third runtime.
    const result = await answeredBy(async () => {
      const waiting = ada.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
      const approved = await approver.approve({ executionId: task.taskId, scope: "ada", decidedBy: "grace" });
      expect(approved).toMatchObject({ status: "completed", result: "bought tea" });
      return waiting;
    });
    expect(result.value.structuredContent).toMatchObject({ status: "completed", result: "bought tea" });
    expect(result.instance).not.toBe(started.instance);

    expect(effects(ledger).filter((line) => line.endsWith(" tea"))).toHaveLength(1);
    const detail = await approver.execution(task.taskId, { scope: "ada" });
    expect(detail?.calls.map((call) => call.decidedBy)).toEqual(["grace"]);
    // Asked again through either instance, the finished task answers the same result and runs nothing.
    for (const _ of [0, 1]) {
      const again = await ada.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
      expect(again.structuredContent).toMatchObject({ status: "completed", result: "bought tea" });
    }
    expect(effects(ledger).filter((line) => line.endsWith(" tea"))).toHaveLength(1);
  });

  it("the MCP Inspector CLI lists, runs a program that pauses, and reads it completed once a person approved", async () => {
    const listed = (await inspector(["--method", "tools/list"])) as { result: { tools: Array<{ name: string }> } };
    expect(listed.result.tools.map((listedTool) => listedTool.name)).toContain("codemode");

    // The CLI calls tools without tasks: the paused output tells what waits for a person.
    const paused = (await inspector([
      "--method",
      "tools/call",
      "--tool-name",
      "codemode",
      "--tool-arg",
      `code=${BUY("coffee")}`,
    ])) as { result: { structuredContent: { status: string; executionId: string; pending: unknown[] } } };
    const { executionId } = paused.result.structuredContent;
    expect(paused.result.structuredContent).toMatchObject({
      status: "paused",
      pending: [{ connector: "shop", method: "buy", args: { item: "coffee" } }],
    });
    expect(effects(ledger).filter((line) => line.endsWith(" coffee"))).toEqual([]);

    await approver.approve({ executionId, scope: "ada", decidedBy: "grace" });
    const outcome = (await inspector([
      "--method",
      "tools/call",
      "--tool-name",
      "codemode_outcome",
      "--tool-arg",
      `executionId=${executionId}`,
    ])) as { result: { structuredContent: unknown } };
    expect(outcome.result.structuredContent).toMatchObject({ status: "completed", result: "bought coffee" });
    expect(effects(ledger).filter((line) => line.endsWith(" coffee"))).toHaveLength(1);
    expect((await approver.execution(executionId, { scope: "ada" }))?.calls.map((call) => call.decidedBy)).toEqual([
      "grace",
    ]);
  });
});
