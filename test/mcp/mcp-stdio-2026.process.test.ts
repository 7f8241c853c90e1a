/**
 * `ai-codemode mcp` on stdio answers a client of the 2026-07-28 revision: the official SDK v2 client
 * (`@modelcontextprotocol/client`) pinned to that revision (`versionNegotiation: { mode: { pin } }`: `server/discover`
 * must offer it, no fallback to `initialize`), over its own stdio transport, against the app's `--runtime` module and
 * against the proxy (`--proxy servers.json` over the tests' `notes` server). Discover, list, search, a program, and
 * a program that pauses, answered by the client's form handler through `input_required` and the retry: one effect.
 */
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "./support/proxy-scenario.js";

const DIST_INDEX = pathToFileURL(join(import.meta.dirname, "../../dist/index.js")).href;
const NOTES_SERVER = fileURLToPath(new URL("./fixtures/notes-server.mjs", import.meta.url));
const REVISION = "2026-07-28";

/** What differs between the two servers: how they start, a program that reads, one that needs approval. */
interface Target {
  name: string;
  args: (folder: string) => string[];
  search: string;
  program: string;
  result: unknown;
  pausing: string;
  /** The effects the approved program had, read after it finished. */
  effects: (client: Client, folder: string) => Promise<unknown>;
  once: unknown;
}

const structured = (out: unknown): Record<string, unknown> =>
  (out as { structuredContent?: Record<string, unknown> }).structuredContent ?? {};

const TARGETS: Target[] = [
  {
    name: "the app's --runtime module",
    args: (folder) => {
      const file = join(folder, "codemode.config.mjs");
      writeFileSync(
        file,
        `import { appendFileSync } from "node:fs";
import { createCodemodeRuntime } from ${JSON.stringify(DIST_INDEX)};
export const runtime = createCodemodeRuntime({
  store: ${JSON.stringify(`file:${join(folder, "codemode.db")}`)},
  connectors: {
    math: { methods: { double: { description: "Twice n", execute: ({ n }) => n * 2 } } },
    mail: { methods: { send: { description: "Send a mail", needsApproval: true,
      execute: ({ to }) => { appendFileSync(${JSON.stringify(join(folder, "sent.log"))}, to + "\\n"); return "sent to " + to; } } } },
  },
});\n`,
      );
      return ["mcp", "--runtime", file];
    },
    search: "math.double",
    program: "async () => math.double({ n: 21 })",
    result: 42,
    pausing: 'async () => mail.send({ to: "ada@example.com" })',
    effects: async (_client, folder) => {
      const log = join(folder, "sent.log");
      return existsSync(log) ? readFileSync(log, "utf8") : "";
    },
    once: "ada@example.com\n",
  },
  {
    name: "the proxy over an upstream server",
    args: (folder) => {
      const file = join(folder, "servers.json");
      writeFileSync(
        file,
        JSON.stringify({
          mcpServers: { notes: { command: process.execPath, args: [NOTES_SERVER] } },
          store: `file:${join(folder, "proxy.db")}`,
        }),
      );
      return ["mcp", "--proxy", file];
    },
    search: "notes.add_note",
    program: "async () => (await notes.list_notes({})).notes",
    result: [],
    pausing: 'async () => notes.add_note({ text: "hello" })',
    effects: async (client) => {
      const out = await client.callTool({
        name: "codemode",
        arguments: { code: "async () => (await notes.list_notes({})).notes" },
      });
      return structured(out)["result"];
    },
    once: ["hello"],
  },
];

describe.each(TARGETS)("ai-codemode mcp on stdio, $name, to a 2026-07-28 client (SDK v2, pinned)", (target) => {
  let folder: string;
  let client: Client;
  const forms: string[] = [];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "codemode-mcp-stdio-2026-"));
    client = new Client(
      { name: "stdio-2026-test", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: REVISION } } },
    );
    client.setRequestHandler("elicitation/create", async (request) => {
      const params = request.params as { message: string; requestedSchema?: { properties?: Record<string, unknown> } };
      forms.push(params.message);
      return {
        action: "accept",
        content: Object.fromEntries(
          Object.keys(params.requestedSchema?.properties ?? {})
            .filter((key) => key.startsWith("call_"))
            .map((key) => [key, "approve"]),
        ),
      };
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, ...target.args(folder)],
        cwd: folder,
        env: { PATH: process.env["PATH"] ?? "" },
        stderr: "pipe",
      }),
    );
  });

  afterAll(async () => {
    await client?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("discovers the server at 2026-07-28 (server/discover offered it: the pinned connect succeeded)", () => {
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getServerVersion()?.name).toEqual(expect.any(String));
  });

  it("lists the tools, searches the methods and runs a program", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["codemode", "codemode_search"]));
    // A program waits for the proxy's upstream servers to start; the search reads what has started.
    const out = await client.callTool({ name: "codemode", arguments: { code: target.program } });
    expect(structured(out)).toMatchObject({ status: "completed", result: target.result });
    const found = await client.callTool({ name: "codemode_search", arguments: { query: target.search } });
    expect(JSON.stringify(found.content)).toContain(target.search);
  });

  it("a program that pauses is answered by the form handler (input_required, then the retry): one effect", async () => {
    const out = await client.callTool({ name: "codemode", arguments: { code: target.pausing } });
    expect(structured(out)).toMatchObject({ status: "completed" });
    expect(forms).toHaveLength(1);
    expect(await target.effects(client, folder)).toEqual(target.once);
  });
});
