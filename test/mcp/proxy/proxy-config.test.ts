/**
 * `servers.json`: `passEnv`, `needsApproval` and `readOnly` are validated with errors naming the
 * path (unknown and renamed keys refused), and the config's policy wins over what a real upstream's
 * annotations claim: a read-only-annotated tool pauses, a destructive one runs, a typo fails closed.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createCodemodeMcpProxy, type CodemodeMcpProxy } from "../../../src/mcp/proxy/create-codemode-mcp-proxy.js";
import { parseProxyConfig, type UpstreamPolicy } from "../../../src/mcp/proxy/proxy-config.js";
import { tempFolder } from "../../support/temp-folder.js";

const NOTES_SERVER = fileURLToPath(new URL("../fixtures/notes-server.mjs", import.meta.url));

const proxies: CodemodeMcpProxy[] = [];
afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.close();
});

function parse(server: Record<string, unknown>, top: Record<string, unknown> = {}) {
  return parseProxyConfig(JSON.stringify({ mcpServers: { notes: server }, ...top }), {}, "servers.json");
}

async function notesRuntime(policy: UpstreamPolicy) {
  const folder = tempFolder("codemode-proxy-policy-");
  const proxy = createCodemodeMcpProxy({
    servers: { notes: { command: process.execPath, args: [NOTES_SERVER], ...policy } },
    runtime: { store: `file:${join(folder, "codemode.db")}` },
    stderr: "ignore",
  });
  proxies.push(proxy);
  return proxy.runtime();
}

describe("servers.json policy and passEnv", () => {
  it("reads passEnv, needsApproval, readOnly and startTimeoutMs", () => {
    expect(
      parse(
        { command: "node", passEnv: ["HTTPS_PROXY", "NODE_EXTRA_CA_CERTS"], needsApproval: ["a"], readOnly: ["b"] },
        { startTimeoutMs: 5000 },
      ),
    ).toEqual({
      mcpServers: {
        notes: {
          command: "node",
          passEnv: ["HTTPS_PROXY", "NODE_EXTRA_CA_CERTS"],
          needsApproval: ["a"],
          readOnly: ["b"],
        },
      },
      startTimeoutMs: 5000,
    });
    expect(parse({ url: "https://x.test/mcp", needsApproval: true }).mcpServers["notes"]).toMatchObject({
      needsApproval: true,
    });
  });

  it("refuses bad values, unknown and renamed keys, naming the path", () => {
    expect(() => parse({ command: "node", needApproval: true })).toThrow(
      /servers\.json\.mcpServers\.notes\.needApproval is not a known option \(did you mean "needsApproval"\?\)/,
    );
    expect(() => parse({ command: "node", requiresApproval: true })).toThrow(
      /notes\.requiresApproval is now called "needsApproval"/,
    );
    expect(() => parse({ command: "node", passEnvs: ["A"] })).toThrow(/did you mean "passEnv"\?/);
    expect(() => parse({ command: "node", passEnv: ["NOT-A-NAME"] })).toThrow(
      /notes\.passEnv holds "NOT-A-NAME", not a variable name/,
    );
    expect(() => parse({ command: "node", passEnv: "HTTPS_PROXY" })).toThrow(/notes\.passEnv must be an array/);
    expect(() => parse({ url: "https://x.test", passEnv: ["A"] })).toThrow(/notes\.passEnv is not a known option/);
    expect(() => parse({ command: "node", needsApproval: "yes" })).toThrow(
      /notes\.needsApproval must be true, false or an array of tool names/,
    );
    expect(() => parse({ command: "node", readOnly: true })).toThrow(/notes\.readOnly must be an array/);
    expect(() => parse({ command: "node", needsApproval: ["a"], readOnly: ["a"] })).toThrow(
      /notes\.readOnly names "a", which needsApproval names too/,
    );
    expect(() => parse({ command: "node" }, { startTimeoutMs: 0 })).toThrow(/servers\.json\.startTimeoutMs must be/);
  });

  it("refuses a server named __proto__ with a clear error (never drops it), and keeps __proto__ keys of env and headers", () => {
    const text = '{ "mcpServers": { "notes": { "command": "node" }, "__proto__": { "command": "node" } } }';
    expect(() => parseProxyConfig(text, {}, "servers.json")).toThrow(
      /servers\.json\.mcpServers\.__proto__ is not a usable namespace/,
    );
    const env = '{ "mcpServers": { "notes": { "command": "node", "env": { "__proto__": "kept" } } } }';
    const notes = parseProxyConfig(env, {}, "servers.json").mcpServers["notes"] as { env: Record<string, string> };
    expect(Object.entries(notes.env)).toEqual([["__proto__", "kept"]]);
  });

  it("needsApproval pauses a tool the server annotates read-only", async () => {
    const runtime = await notesRuntime({ needsApproval: ["list_notes"] });
    const out = await runtime.execute({ code: "async () => notes.list_notes({})" });
    expect(out).toMatchObject({ status: "paused", pending: [{ connector: "notes", method: "list_notes" }] });
    expect(await runtime.approve({ executionId: out.executionId })).toMatchObject({
      status: "completed",
      result: { notes: [] },
    });
  });

  it("a needsApproval list adds approval and never removes it from a tool the server annotates destructive", async () => {
    const runtime = await notesRuntime({ needsApproval: ["list_notes"] });
    const out = await runtime.execute({ code: "async () => notes.add_note({ text: 'unguarded?' })" });
    expect(out).toMatchObject({ status: "paused", pending: [{ connector: "notes", method: "add_note" }] });
    const listed = await runtime.execute({ code: "async () => notes.secret_length({})" });
    expect(listed).toMatchObject({ status: "completed" });
  });

  it("needsApproval: true pauses every tool but those in readOnly; false and readOnly let a destructive one run", async () => {
    const every = await notesRuntime({ needsApproval: true, readOnly: ["list_notes"] });
    expect(await every.execute({ code: "async () => notes.secret_length({})" })).toMatchObject({ status: "paused" });
    expect(await every.execute({ code: "async () => notes.list_notes({})" })).toMatchObject({ status: "completed" });
    const none = await notesRuntime({ needsApproval: false });
    expect(await none.execute({ code: "async () => notes.add_note({ text: 'a' })" })).toMatchObject({
      status: "completed",
      result: { count: 1 },
    });
    const listed = await notesRuntime({ readOnly: ["add_note"] });
    expect(await listed.execute({ code: "async () => notes.add_note({ text: 'b' })" })).toMatchObject({
      status: "completed",
    });
  });

  it("a tool name the server does not have makes the namespace unavailable, saying which (a typo fails closed)", async () => {
    const runtime = await notesRuntime({ needsApproval: ["add_notes"] });
    expect(runtime.tool().description).toMatch(
      /notes: Unavailable: the MCP server "notes" started, but its config names the tool "add_notes"/,
    );
    expect(JSON.stringify(await runtime.describe("notes"))).toMatch(/did you mean \\"add_note\\"\?/);
    expect(await runtime.execute({ code: "async () => notes.add_note({ text: 'x' })" })).toMatchObject({
      status: "error",
    });
  });
});
