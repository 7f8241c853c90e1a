/**
 * MCP tasks backed by the journal, as a serverless deployment runs them: two processes each
 * serving `createCodemodeMcpHandler` (`sessions: false`) over one journal file on 127.0.0.1,
 * driven by the MCP SDK's client over Streamable HTTP. A program paused on one instance is a
 * task in `input_required`; a person approves it in a third runtime; `tasks/result` on the other
 * instance returns the result. Tasks belong to the owner `authorize` names, not to a session.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema, type Task } from "@modelcontextprotocol/sdk/types.js";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import {
  approverRuntime,
  BUY,
  effects as ledgerEffects,
  startInstance,
  stopInstance,
} from "./support/task-instances.js";

describe("the codemode tool as an MCP task, answered from the journal by any instance", () => {
  let folder: string;
  let ledger: string;
  let approver: CodemodeRuntime;
  const instances: Array<{ child: ChildProcess; url: string }> = [];
  const clients: Client[] = [];

  /** A client of instance `index`, for `user` (the header the instances' authorize reads). */
  async function clientOf(index: number, user: string): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL(instances[index]!.url), {
      requestInit: { headers: { "x-user": user } },
    });
    const client = new Client({ name: `tasks-${user}`, version: "1" });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  /** Calls `codemode` as a task and returns the created task. */
  async function startTask(client: Client, code: string): Promise<Task> {
    const created = await client.request(
      { method: "tools/call", params: { name: "codemode", arguments: { code }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    return created.task;
  }

  const effects = (): string[] => ledgerEffects(ledger);

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "codemode-mcp-tasks-"));
    ledger = join(folder, "ledger.txt");
    const database = join(folder, "codemode.db");
    instances.push(...(await Promise.all([startInstance(database, ledger), startInstance(database, ledger)])));
    // The person's side (e.g. the app's inspector): another runtime over the same journal and connector.
    approver = approverRuntime(database, ledger);
  });

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await Promise.all(instances.map(({ child }) => stopInstance(child)));
    await approver?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("lists codemode as task-capable: a client that asks for no task is answered as before", async () => {
    const ada = await clientOf(0, "ada");
    const { tools } = await ada.listTools();
    expect(tools.find((listed) => listed.name === "codemode")?.execution).toEqual({ taskSupport: "optional" });
    const plain = await ada.callTool({ name: "codemode", arguments: { code: BUY("plain") } });
    expect(plain.structuredContent).toMatchObject({ status: "paused" });
    expect(effects()).toEqual([]);
  });

  it("pauses as input_required on one instance; approved elsewhere; tasks/result on the other returns it once", async () => {
    const [adaOnA, adaOnB] = [await clientOf(0, "ada"), await clientOf(1, "ada")];
    const task = await startTask(adaOnA, BUY("tea"));
    expect(task.status).toBe("input_required");
    expect(task.statusMessage).toMatch(/approve or reject/);
    expect((await adaOnB.experimental.tasks.getTask(task.taskId)).status).toBe("input_required");

    // tasks/result waits on instance B, reading the journal, while the person decides in a third runtime.
    const waiting = adaOnB.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    const approved = await approver.approve({ executionId: task.taskId, scope: "ada", decidedBy: "grace" });
    expect(approved).toMatchObject({ status: "completed", result: "bought tea" });
    const result = await waiting;
    expect(result.structuredContent).toMatchObject({ status: "completed", result: "bought tea" });
    expect(result.isError).toBeUndefined();

    expect((await adaOnA.experimental.tasks.getTask(task.taskId)).status).toBe("completed");
    expect(effects().filter((line) => line.endsWith(" tea"))).toHaveLength(1);
    const detail = await approver.execution(task.taskId, { scope: "ada" });
    expect(detail?.calls.map((call) => call.decidedBy)).toEqual(["grace"]);
  });

  it("is the owner's: tasks/list shows only their executions, another owner's tasks/get is not found", async () => {
    const [adaOnA, bobOnB] = [await clientOf(0, "ada"), await clientOf(1, "bob")];
    const adas = await startTask(adaOnA, BUY("ada's"));
    const bobs = await startTask(bobOnB, BUY("bob's"));
    const listedForBob = (await bobOnB.experimental.tasks.listTasks()).tasks.map((listed) => listed.taskId);
    expect(listedForBob).toEqual([bobs.taskId]);
    const listedForAda = (await adaOnA.experimental.tasks.listTasks()).tasks.map((listed) => listed.taskId);
    expect(listedForAda).toContain(adas.taskId);
    expect(listedForAda).not.toContain(bobs.taskId);
    await expect(bobOnB.experimental.tasks.getTask(adas.taskId)).rejects.toThrow(/not found/i);
    await expect(bobOnB.experimental.tasks.cancelTask(adas.taskId)).rejects.toThrow(/not found/i);
    expect((await adaOnA.experimental.tasks.getTask(adas.taskId)).status).toBe("input_required");
  });

  it("tasks/cancel on another instance rejects the paused execution: cancelled, nothing runs", async () => {
    const [adaOnA, adaOnB] = [await clientOf(0, "ada"), await clientOf(1, "ada")];
    const task = await startTask(adaOnB, BUY("cancelled"));
    const cancelled = await adaOnA.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled.status).toBe("cancelled");
    expect((await approver.execution(task.taskId, { scope: "ada" }))?.status).toBe("rejected");
    const result = await adaOnB.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.structuredContent).toMatchObject({ status: "rejected" });
    await expect(adaOnA.experimental.tasks.cancelTask(task.taskId)).rejects.toThrow(/terminal/);
    expect(effects().filter((line) => line.endsWith(" cancelled"))).toEqual([]);
  });

  it("only codemode runs as a task; a program without code and a cursor it never gave are protocol errors", async () => {
    const ada = await clientOf(0, "ada");
    await expect(
      ada.request(
        { method: "tools/call", params: { name: "codemode_search", arguments: { query: "buy" }, task: {} } },
        CreateTaskResultSchema,
      ),
    ).rejects.toThrow(/Only codemode runs as a task/);
    await expect(
      ada.request(
        { method: "tools/call", params: { name: "codemode", arguments: {}, task: {} } },
        CreateTaskResultSchema,
      ),
    ).rejects.toThrow(/takes \{ "code": string \}/);
    await expect(ada.experimental.tasks.listTasks("o12x")).rejects.toThrow(/cursor/);
  });

  it("a program that throws is a failed task whose result is the error", async () => {
    const ada = await clientOf(1, "ada");
    const task = await startTask(ada, 'async () => { throw new Error("no stock") }');
    expect(task.status).toBe("failed");
    expect(task.statusMessage).toMatch(/no stock/);
    const result = await ada.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ status: "error" });
  });
});
