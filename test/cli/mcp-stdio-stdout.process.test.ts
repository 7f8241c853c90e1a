/**
 * `ai-codemode mcp --runtime <module>` on stdio, a real child process driven by the MCP SDK's own
 * client: what the app's module and its connectors print with `console.log` (or write to stdout)
 * goes to stderr, so stdout carries JSON-RPC only.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { CLI, structured } from "../mcp/support/proxy-scenario.js";
import { tempFolder } from "../support/temp-folder.js";

describe("ai-codemode mcp --runtime on stdio", () => {
  it("sends the app's console output to stderr: stdout is the protocol alone", async () => {
    const cwd = tempFolder("codemode-mcp-stdout-");
    const distIndex = pathToFileURL(resolve(import.meta.dirname, "../../dist/index.js")).href;
    writeFileSync(
      join(cwd, "app.mjs"),
      `import { createCodemodeRuntime } from ${JSON.stringify(distIndex)};
console.log("app: module loaded");
export const runtime = createCodemodeRuntime({
  store: ${JSON.stringify(`file:${join(cwd, "codemode.db")}`)},
  connectors: {
    math: {
      methods: {
        double: {
          execute: ({ n }) => {
            console.log("connector: doubling", n);
            console.info("connector: info");
            process.stdout.write("connector: raw write\\n");
            return n * 2;
          },
        },
      },
    },
  },
});\n`,
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp", "--runtime", "app.mjs"],
      cwd,
      env: { PATH: process.env["PATH"] ?? "" },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "stdout-check", version: "1.0.0" });
    const problems: string[] = [];
    client.onerror = (error) => problems.push(error.message);
    try {
      await client.connect(transport);
      const out = await client.callTool({
        name: "codemode",
        arguments: { code: "async () => math.double({ n: 21 })" },
      });
      expect(structured(out)).toMatchObject({ status: "completed", result: 42 });
    } finally {
      await client.close();
    }
    // A line of log on stdout would have been a parse error of the client.
    expect(problems).toEqual([]);
    expect(stderr).toContain("app: module loaded");
    expect(stderr).toContain("connector: doubling 21");
    expect(stderr).toContain("connector: info");
    expect(stderr).toContain("connector: raw write");
  });
});
