/**
 * docs/mcp.md as written: every JSON block on the page parses with `parseProxyConfig`, and the
 * desktop host entry it shows is launched as a host launches it (its exact command and arguments,
 * a minimal environment plus the entry's `env`) in a project where ai-codemode is installed; the
 * MCP SDK's client lists the tools and runs a program through it. The Vercel route it shows is the Next.js
 * example's `app/api/mcp/route.ts` as the file is (its e2e/mcp.test.mjs drives it in the built app), and
 * runs here as written, its imports resolved as Next.js would: the MCP SDK's client pauses a program as a
 * task, a person approves, and `tasks/result` returns the result.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, onTestFinished } from "vitest";
import { fetchRequestListener } from "../../src/cli/fetch-over-node-http.js";
import { createCodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { createMockConnector } from "../../src/test/mock-connector.js";
import { parseProxyConfig } from "../../src/mcp/proxy/proxy-config.js";
import { tempFolder } from "../support/temp-folder.js";
import { structured } from "./support/proxy-scenario.js";
import { setEnvForTest } from "../support/test-env.js";

const ROOT = resolve(import.meta.dirname, "../..");
const PAGE = readFileSync(join(ROOT, "docs/mcp.md"), "utf8");
const NOTES_SERVER = fileURLToPath(new URL("./fixtures/notes-server.mjs", import.meta.url));
const ROUTE = readFileSync(join(ROOT, "examples/nextjs/app/api/mcp/route.ts"), "utf8");
const APP_CODEMODE = fileURLToPath(new URL("./fixtures/docs-route-codemode.ts", import.meta.url));
/** The example's session module (read at run time, so the type checker of the package does not follow it). */
const APP_SESSION = join(ROOT, "examples/nextjs/lib/session.ts");

/** The page's Next.js route, the ```ts block that starts with its path. */
function routeBlock(): string | undefined {
  return /```ts\n(\/\/ app\/api\/mcp\/route\.ts[\s\S]*?)```/.exec(PAGE)?.[1];
}

/** `text` with each import specifier replaced as `imports` says; every one must occur. */
function resolveImports(text: string, imports: Record<string, string>): string {
  let out = text;
  for (const [from, to] of Object.entries(imports)) {
    expect(out).toContain(`from "${from}";`);
    out = out.replace(`from "${from}";`, `from ${JSON.stringify(to)};`);
  }
  return out;
}

/** The page's ```json blocks, in order. */
function jsonBlocks(): string[] {
  return [...PAGE.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

describe("docs/mcp.md", () => {
  it("has the servers.json, the host entry and the passEnv example, each accepted by parseProxyConfig", () => {
    const [servers, host, passEnv] = jsonBlocks();
    expect(jsonBlocks()).toHaveLength(3);
    const parsed = parseProxyConfig(servers!, { GITHUB_TOKEN: "t0ken" }, "servers.json");
    expect(parsed.mcpServers["github"]).toMatchObject({
      headers: { Authorization: "Bearer t0ken" },
      needsApproval: true,
      readOnly: ["get_issue", "list_issues", "search_code"],
    });
    expect(parsed.startTimeoutMs).toBe(15000);
    expect(parseProxyConfig(host!, {}, "claude_desktop_config.json").mcpServers["codemode_proxy"]).toMatchObject({
      command: "npx",
    });
    expect(parseProxyConfig(passEnv!, {}, "servers.json").mcpServers["memory"]).toMatchObject({
      passEnv: expect.arrayContaining(["HTTPS_PROXY", "NODE_EXTRA_CA_CERTS"]),
    });
  });

  it("shows the Next.js route exactly as the example runs it", () => {
    expect(routeBlock()).toBe(ROUTE);
    expect(ROUTE).toMatch(/sessions: false/);
  });

  it("runs the Next.js route as written: a program paused as an MCP task, approved, tasks/result returns it", async () => {
    const folder = tempFolder("codemode-docs-route-");
    setEnvForTest("SESSION_SECRET", "docs-route-test-secret");
    const shop = createMockConnector("shop", { methods: { buy: { needsApproval: true, result: "bought" } } });
    const runtime = createCodemodeRuntime({ connectors: { shop }, store: `file:${join(folder, "codemode.db")}` });
    onTestFinished(() => runtime.close());
    const { app } = (await import(APP_CODEMODE)) as typeof import("./fixtures/docs-route-codemode.js");
    app.runtime = runtime;

    // The `@/` imports resolve as the app's tsconfig paths do; `ai-codemode/mcp` is this package's entry.
    const file = join(folder, "route.ts");
    writeFileSync(
      file,
      resolveImports(routeBlock() ?? "", {
        "ai-codemode/mcp": join(ROOT, "src/mcp.ts"),
        "@/lib/codemode": APP_CODEMODE,
        "@/lib/session": APP_SESSION,
      }),
    );
    type Handler = (request: Request) => Promise<Response>;
    const route = (await import(pathToFileURL(file).href)) as Record<"GET" | "POST" | "DELETE", Handler>;
    const server = createServer(
      fetchRequestListener((request) => route[request.method as "GET" | "POST" | "DELETE"](request)),
    );
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    onTestFinished(() => new Promise<void>((done) => server.close(() => done())));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`);

    const session = (await import(APP_SESSION)) as {
      newUserId(): string;
      sessionCookieValue(userId: string): Promise<string>;
    };
    const userId = session.newUserId();
    const token = await session.sessionCookieValue(userId);
    const client = new Client({ name: "docs-route", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    onTestFinished(() => client.close());

    const { tools } = await client.listTools();
    expect(tools.find((listed) => listed.name === "codemode")?.execution).toEqual({ taskSupport: "optional" });
    const { task } = await client.request(
      { method: "tools/call", params: { name: "codemode", arguments: { code: "async () => shop.buy({})" }, task: {} } },
      CreateTaskResultSchema,
    );
    expect(task).toMatchObject({ status: "input_required", statusMessage: expect.stringMatching(/\/codemode/) });
    const waiting = client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    await runtime.approve({ executionId: task.taskId, scope: userId, decidedBy: "grace" });
    expect((await waiting).structuredContent).toMatchObject({ status: "completed", result: "bought" });
    expect(shop.ledger.count("shop.buy")).toBe(1);
    expect((await runtime.execution(task.taskId))?.calls.map((call) => call.decidedBy)).toEqual(["grace"]);

    expect((await fetch(url, { method: "POST", headers: { authorization: "Bearer forged" } })).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status).toBe(405);
  });

  it("launches the host entry's command line as a desktop host does, and serves a program through it", async () => {
    const project = tempFolder("codemode-docs-host-");
    // A project with ai-codemode installed (as `npm install ai-codemode` leaves it), so npx runs it offline.
    mkdirSync(join(project, "node_modules", ".bin"), { recursive: true });
    symlinkSync(ROOT, join(project, "node_modules", "ai-codemode"));
    symlinkSync("../ai-codemode/dist/cli.js", join(project, "node_modules", ".bin", "ai-codemode"));
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ private: true, dependencies: { "ai-codemode": "*" } }),
    );
    const servers = join(project, "servers.json");
    writeFileSync(
      servers,
      JSON.stringify({
        store: `file:${join(project, "codemode.db")}`,
        mcpServers: {
          notes: { command: process.execPath, args: [NOTES_SERVER], env: { NOTES_SECRET: "${GITHUB_TOKEN}" } },
        },
      }),
    );
    const entry = (
      JSON.parse(jsonBlocks()[1]!) as {
        mcpServers: { codemode_proxy: { command: string; args: string[]; env: Record<string, string> } };
      }
    ).mcpServers.codemode_proxy;
    // The page's placeholder path is the one thing a reader changes.
    const args = entry.args.map((arg) => (arg.endsWith("servers.json") ? servers : arg));
    const transport = new StdioClientTransport({
      command: "/usr/bin/env",
      args: [
        "-i",
        `PATH=${process.env["PATH"] ?? ""}`,
        `HOME=${project}`,
        ...Object.entries(entry.env).map(([key, value]) => `${key}=${value}`),
        entry.command,
        ...args,
      ],
      cwd: project,
      stderr: "pipe",
    });
    const client = new Client({ name: "docs-host", version: "1.0.0" });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("codemode");
      const out = await client.callTool({
        name: "codemode",
        arguments: { code: "async () => notes.secret_length({})" },
      });
      expect(structured(out)).toMatchObject({
        status: "completed",
        result: { length: entry.env["GITHUB_TOKEN"]!.length },
      });
    } finally {
      await client.close();
    }
  });
});
