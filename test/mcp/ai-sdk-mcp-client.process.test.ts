/**
 * `@ai-sdk/mcp` as an AI SDK app uses it, against `ai-codemode mcp --http` (the built CLI over an app's runtime
 * module, a real process on 127.0.0.1), with its protocol discovery on (the default): it probes `server/discover`
 * and speaks the 2026-07-28 revision when the server answers it, `initialize` otherwise. Every JSON-RPC message it
 * sends is recorded (through its `fetch` option). A program runs end to end in `generateText`, and a program that
 * pauses for approval is answered by the client's elicitation handler and finishes, with one effect.
 */
import { createMCPClient, ElicitationRequestSchema, type MCPClient } from "@ai-sdk/mcp";
import { generateText, stepCountIs } from "ai";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastToolOutput, scriptedModel } from "../ai/support/scripted-model.js";
import { listeningUrl } from "./support/listening-url.js";
import { CLI } from "./support/proxy-scenario.js";

const DIST_INDEX = pathToFileURL(join(import.meta.dirname, "../../dist/index.js")).href;

/** The app's runtime module: `math.double` runs freely, `mail.send` needs approval and appends to `sent.log`. */
function writeRuntimeModule(folder: string): string {
  const file = join(folder, "codemode.config.mjs");
  writeFileSync(
    file,
    `import { appendFileSync } from "node:fs";
import { createCodemodeRuntime } from ${JSON.stringify(DIST_INDEX)};
export const runtime = createCodemodeRuntime({
  store: ${JSON.stringify(`file:${join(folder, "codemode.db")}`)},
  connectors: {
    math: { methods: { double: { description: "Twice n", execute: ({ n }) => n * 2 } } },
    mail: {
      methods: {
        send: {
          description: "Send a mail",
          needsApproval: true,
          execute: ({ to }) => {
            appendFileSync(${JSON.stringify(join(folder, "sent.log"))}, to + "\\n");
            return "sent to " + to;
          },
        },
      },
    },
  },
});\n`,
  );
  return file;
}

/** A JSON-RPC request or notification a client sent. */
interface JsonRpcMessage {
  method: string;
  params?: Record<string, unknown>;
}

/** Records the JSON-RPC messages a client sends, in order (a batch counts each). */
function recordingFetch(sent: JsonRpcMessage[]): typeof fetch {
  return async (input, init) => {
    if (typeof init?.body === "string") {
      const body = JSON.parse(init.body) as unknown;
      for (const message of Array.isArray(body) ? body : [body])
        if (typeof message === "object" && message !== null && "method" in message) sent.push(message as never);
    }
    return fetch(input, init);
  };
}

describe("@ai-sdk/mcp (protocol discovery on) against ai-codemode mcp --http", () => {
  let folder: string;
  let server: { child: ChildProcess; url: string };

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "codemode-ai-sdk-mcp-"));
    const module = writeRuntimeModule(folder);
    const child = spawn(process.execPath, [CLI, "mcp", "--http", "127.0.0.1:0", "--runtime", module], {
      cwd: folder,
      env: { PATH: process.env["PATH"] ?? "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server = await listeningUrl(child);
  });

  afterAll(async () => {
    if (server !== undefined && server.child.exitCode === null) {
      const exited = new Promise((resolve) => server.child.once("exit", resolve));
      server.child.kill("SIGTERM");
      await exited;
    }
    rmSync(folder, { recursive: true, force: true });
  });

  const connect = async (): Promise<{ client: MCPClient; sent: JsonRpcMessage[] }> => {
    const sent: JsonRpcMessage[] = [];
    const client = await createMCPClient({
      transport: { type: "http", url: server.url, fetch: recordingFetch(sent) },
      protocolVersionDiscovery: true,
      capabilities: { elicitation: {} },
    });
    return { client, sent };
  };

  it("discovers the server with server/discover (2026-07-28, no initialize) and runs a program in generateText", async () => {
    const { client, sent } = await connect();
    try {
      expect(sent[0]?.method).toBe("server/discover");
      expect(client.initializeResult.protocolVersion).toBe("2026-07-28");
      expect(sent.map((message) => message.method)).not.toContain("initialize");
      const tools = await client.tools();
      expect(Object.keys(tools)).toContain("codemode");
      const seen: unknown[] = [];
      const result = await generateText({
        model: scriptedModel((prompt, index) => {
          if (index === 0) return { code: "async () => ({ doubled: await math.double({ n: 21 }) })" };
          seen.push(lastToolOutput(prompt));
          return { text: "done" };
        }),
        tools,
        stopWhen: stepCountIs(3),
        prompt: "Double 21.",
      });
      expect(result.text).toBe("done");
      const output = JSON.parse((seen[0] as { value: Array<{ text: string }> }).value[0]?.text ?? "null");
      expect(output).toMatchObject({ status: "completed", result: { doubled: 42 } });
      // Every request after discovery carried the revision in its _meta (the stateless 2026-07-28 way).
      for (const message of sent.filter((entry) => !entry.method.startsWith("notifications/")))
        expect(
          (message.params?.["_meta"] as Record<string, unknown> | undefined)?.[
            "io.modelcontextprotocol/protocolVersion"
          ],
        ).toBe("2026-07-28");
    } finally {
      await client.close();
    }
  });

  it("a program that pauses is approved through its elicitation handler (input_required, then the retry): one effect", async () => {
    const { client, sent } = await connect();
    const forms: string[] = [];
    client.onElicitationRequest(ElicitationRequestSchema, (request) => {
      forms.push(request.params.message);
      const properties = (request.params as { requestedSchema?: { properties?: Record<string, unknown> } })
        .requestedSchema?.properties;
      return {
        action: "accept",
        content: Object.fromEntries(
          Object.keys(properties ?? {})
            .filter((key) => key.startsWith("call_"))
            .map((key) => [key, "approve"]),
        ),
      };
    });
    try {
      const out = await client.callTool({
        name: "codemode",
        arguments: { code: 'async () => mail.send({ to: "ada@example.com" })' },
      });
      expect(out.structuredContent).toMatchObject({ status: "completed", result: "sent to ada@example.com" });
      expect(forms).toHaveLength(1);
      expect(forms[0]).toContain("mail.send");
      const calls = sent.filter((message) => message.method === "tools/call");
      // The first call was answered input_required; the retry carried the answer and the request state.
      expect(calls).toHaveLength(2);
      expect(calls[1]?.params?.["requestState"]).toEqual(expect.any(String));
      expect(calls[1]?.params?.["inputResponses"]).toBeDefined();
      const log = join(folder, "sent.log");
      expect(existsSync(log) ? readFileSync(log, "utf8") : "").toBe("ada@example.com\n");
    } finally {
      await client.close();
    }
  });
});
