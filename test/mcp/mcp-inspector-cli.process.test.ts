/**
 * The MCP Inspector CLI (`mcp-inspector --cli`, `@modelcontextprotocol/inspector`) as a person runs it against
 * `ai-codemode mcp` on stdio (it starts the server itself) and over Streamable HTTP (`--http` on 127.0.0.1): it lists
 * the tools, searches the methods and runs a program, and reads a paused program's pending call.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listeningUrl } from "./support/listening-url.js";
import { CLI } from "./support/proxy-scenario.js";

const INSPECTOR = resolve(
  import.meta.dirname,
  "../../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
);
const DIST_INDEX = pathToFileURL(join(import.meta.dirname, "../../dist/index.js")).href;

type Json = Record<string, unknown>;

describe("the MCP Inspector CLI against ai-codemode mcp", () => {
  let folder: string;
  let module: string;
  let http: { child: ChildProcess; url: string };

  /** `mcp-inspector --cli <target…> <args…> --format json`; its JSON result. */
  function inspector(target: string[], args: string[]): Promise<Json> {
    const home = join(folder, "inspector-home");
    mkdirSync(home, { recursive: true });
    return new Promise((done, fail) => {
      execFile(
        process.execPath,
        [INSPECTOR, "--cli", ...target, ...args, "--format", "json", "--quiet"],
        // Its catalog goes under HOME: a folder of the test's.
        { cwd: folder, env: { PATH: process.env["PATH"] ?? "", HOME: home }, timeout: 60_000 },
        (error, stdout, stderr) => {
          if (error !== null) fail(new Error(`mcp-inspector ${args.join(" ")} failed: ${stderr}${stdout}`));
          else done(JSON.parse(stdout) as Json);
        },
      );
    });
  }

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "codemode-mcp-inspector-cli-"));
    module = join(folder, "codemode.config.mjs");
    writeFileSync(
      module,
      `import { createCodemodeRuntime } from ${JSON.stringify(DIST_INDEX)};
export const runtime = createCodemodeRuntime({
  store: ${JSON.stringify(`file:${join(folder, "codemode.db")}`)},
  connectors: {
    math: { methods: { double: { description: "Twice n", execute: ({ n }) => n * 2 } } },
    mail: { methods: { send: { description: "Send a mail", needsApproval: true, execute: () => "sent" } } },
  },
});\n`,
    );
    const child = spawn(process.execPath, [CLI, "mcp", "--http", "127.0.0.1:0", "--runtime", module], {
      cwd: folder,
      env: { PATH: process.env["PATH"] ?? "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    http = await listeningUrl(child);
  });

  afterAll(async () => {
    if (http !== undefined && http.child.exitCode === null) {
      const exited = new Promise((done) => http.child.once("exit", done));
      http.child.kill("SIGTERM");
      await exited;
    }
    rmSync(folder, { recursive: true, force: true });
  });

  const targets = (): Array<[string, string[]]> => [
    ["stdio", [process.execPath, CLI, "mcp", "--runtime", module]],
    ["Streamable HTTP", [http.url, "--transport", "http"]],
  ];

  it("lists the tools, searches and runs a program, over stdio and over HTTP", async () => {
    for (const [name, target] of targets()) {
      const listed = (await inspector(target, ["--method", "tools/list"])) as {
        result: { tools: Array<{ name: string }> };
      };
      expect(
        listed.result.tools.map((tool) => tool.name),
        name,
      ).toEqual(expect.arrayContaining(["codemode", "codemode_search"]));
      const found = (await inspector(target, [
        "--method",
        "tools/call",
        "--tool-name",
        "codemode_search",
        "--tool-arg",
        "query=double",
      ])) as { result: { content: unknown } };
      expect(JSON.stringify(found.result.content), name).toContain("math.double");
      const ran = (await inspector(target, [
        "--method",
        "tools/call",
        "--tool-name",
        "codemode",
        "--tool-arg",
        "code=async () => math.double({ n: 21 })",
      ])) as { result: { structuredContent: unknown } };
      expect(ran.result.structuredContent, name).toMatchObject({ status: "completed", result: 42 });
    }
  });

  it("shows a paused program's pending call (the CLI answers no form: nothing runs)", async () => {
    for (const [name, target] of targets()) {
      const paused = (await inspector(target, [
        "--method",
        "tools/call",
        "--tool-name",
        "codemode",
        "--tool-arg",
        'code=async () => mail.send({ to: "ada@example.com" })',
      ])) as { result: { structuredContent: unknown } };
      expect(paused.result.structuredContent, name).toMatchObject({
        status: "paused",
        pending: [{ connector: "mail", method: "send", args: { to: "ada@example.com" } }],
      });
    }
  });
});
