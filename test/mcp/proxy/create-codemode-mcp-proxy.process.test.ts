/**
 * The code-mode proxy over real upstream MCP servers (a small notes server, and
 * `@modelcontextprotocol/server-memory` from npm): lazy start, reuse, annotations as policy,
 * a server that fails to start or dies (a clear error for that namespace, never a crash),
 * a failed start tried again later, and credentials that stay in the proxy.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createCodemodeMcpProxy, type CodemodeMcpProxy } from "../../../src/mcp/proxy/create-codemode-mcp-proxy.js";
import { tempFolder } from "../../support/temp-folder.js";

const NOTES_SERVER = fileURLToPath(new URL("../fixtures/notes-server.mjs", import.meta.url));
const MEMORY_SERVER = fileURLToPath(
  new URL("../../../node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url),
);

const proxies: CodemodeMcpProxy[] = [];
afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.close();
});

function starts(file: string): number {
  return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").length : 0;
}

function notesProxy(folder: string, extra: Record<string, unknown> = {}, options: Record<string, unknown> = {}) {
  const startsFile = join(folder, "starts.txt");
  const proxy = createCodemodeMcpProxy({
    servers: {
      notes: {
        command: process.execPath,
        args: [NOTES_SERVER],
        env: { NOTES_STARTS: startsFile, NOTES_SECRET: "s3cret-token" },
      },
      ...extra,
    },
    runtime: { store: `file:${join(folder, "codemode.db")}` },
    stderr: "ignore",
    ...options,
  });
  proxies.push(proxy);
  return { proxy, startsFile };
}

describe("createCodemodeMcpProxy", () => {
  it("starts nothing until the runtime is asked for, then starts each server once and reuses it", async () => {
    const folder = tempFolder("codemode-proxy-");
    const { proxy, startsFile } = notesProxy(folder, {
      memory: {
        command: process.execPath,
        args: [MEMORY_SERVER],
        env: { MEMORY_FILE_PATH: join(folder, "memory.jsonl") },
      },
    });
    expect(starts(startsFile)).toBe(0);
    const runtime = await proxy.runtime();
    expect(starts(startsFile)).toBe(1);
    const first = await runtime.execute({
      code: `async () => {
        await memory.create_entities({ entities: [{ name: "Ada", entityType: "person", observations: [] }] });
        return { graph: (await memory.read_graph({})).entities.map((e) => e.name), notes: await notes.list_notes({}) };
      }`,
    });
    expect(first).toMatchObject({ status: "completed", result: { graph: ["Ada"], notes: { notes: [] } } });
    const again = await proxy.runtime();
    expect(again).toBe(runtime);
    await runtime.execute({ code: "async () => notes.list_notes({})" });
    expect(starts(startsFile)).toBe(1);
  });

  it("takes the policy from the annotations: a destructive tool pauses, and runs once approved", async () => {
    const { proxy } = notesProxy(tempFolder("codemode-proxy-"));
    const runtime = await proxy.runtime();
    const out = await runtime.execute({ code: "async () => notes.add_note({ text: 'hi' })" });
    expect(out).toMatchObject({
      status: "paused",
      pending: [{ connector: "notes", method: "add_note", args: { text: "hi" } }],
    });
    expect(await runtime.approve({ executionId: out.executionId })).toMatchObject({
      status: "completed",
      result: { count: 1 },
    });
  });

  it("passes a server its env (credentials stay in the proxy: the model sees the tools, not the values)", async () => {
    const { proxy } = notesProxy(tempFolder("codemode-proxy-"));
    const runtime = await proxy.runtime();
    expect(await runtime.execute({ code: "async () => notes.secret_length({})" })).toMatchObject({
      result: { length: "s3cret-token".length },
    });
    expect(runtime.tool().description).not.toContain("s3cret");
    expect(JSON.stringify(await runtime.describe("notes"))).not.toContain("s3cret");
  });

  it("a server that fails to start is an unavailable namespace saying why; the others work; it is tried again later", async () => {
    const folder = tempFolder("codemode-proxy-");
    let clock = 1_000;
    const { proxy } = notesProxy(
      folder,
      { broken: { command: join(folder, "no-such-binary") } },
      { retryMs: 60_000, _internal: { now: () => clock } },
    );
    const runtime = await proxy.runtime();
    expect(runtime.tool().description).toMatch(/- broken: Unavailable now: the MCP server "broken" did not start/);
    const described = await runtime.describe("broken");
    expect(JSON.stringify(described)).toContain("did not start");
    expect(await runtime.execute({ code: "async () => notes.list_notes({})" })).toMatchObject({ status: "completed" });
    const call = await runtime.execute({ code: "async () => broken.anything({})" });
    expect(call).toMatchObject({ status: "error" });
    // Why it has no methods, not only that it has none.
    expect(JSON.stringify(call)).toMatch(
      /broken has no method \\"anything\\"\. \(it has no methods: Unavailable now: the MCP server \\"broken\\" did not start: /,
    );
    expect(await proxy.runtime()).toBe(runtime);
    clock += 60_000;
    const retried = await proxy.runtime();
    expect(retried).not.toBe(runtime);
    expect(retried.tool().description).toMatch(/did not start/);
  });

  it("a server that dies fails the call in flight with a clear error, and is started again at the next call", async () => {
    const folder = tempFolder("codemode-proxy-");
    const { proxy, startsFile } = notesProxy(folder);
    const runtime = await proxy.runtime();
    const crashed = await runtime.execute({
      code: "async () => { try { await notes.crash({}); return 'no error'; } catch (error) { return String(error.message ?? error); } }",
    });
    expect(crashed).toMatchObject({ status: "completed" });
    expect((crashed as { result: string }).result).toMatch(/The MCP server "notes" stopped during this call/);
    const after = await runtime.execute({ code: "async () => notes.list_notes({})" });
    expect(after).toMatchObject({ status: "completed", result: { notes: [] } });
    expect(starts(startsFile)).toBe(2);
  });

  it("refuses bad servers at construction, naming the path", () => {
    expect(() => createCodemodeMcpProxy({ servers: {} })).toThrow(/servers must name at least one MCP server/);
    expect(() => createCodemodeMcpProxy({ servers: { "my-server": { command: "x" } } })).toThrow(
      /servers\.my-server is not a usable namespace/,
    );
    expect(() => createCodemodeMcpProxy({ servers: { a: { url: "ftp://x" } } })).toThrow(
      /servers\.a\.url must be an http\(s\) URL/,
    );
    expect(() => createCodemodeMcpProxy({ servers: { a: { command: "x", argz: [] } as never } })).toThrow(
      /servers\.a\.argz is not a known option \(did you mean "args"\?\)/,
    );
    expect(() => createCodemodeMcpProxy({ servers: { a: { command: "x" } }, runtime: { stor: "x" } as never })).toThrow(
      /options\.stor is not a known option/,
    );
  });
});
