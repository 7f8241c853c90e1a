/**
 * A program's console lines reach the MCP client as log messages (`notifications/message`) at or
 * above the level it asked for: by `logging/setLevel` on a 2025-11-25 session, by the request's
 * own log level (`_meta["io.modelcontextprotocol/logLevel"]`) on 2026-07-28, which sends none
 * when the request names no level.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, onTestFinished } from "vitest";
import { programLogMessage } from "../../src/mcp/program-log.js";
import { byUser, clientAs, mailRuntime, serveHandler } from "./support/handler-over-http.js";

const PROGRAM = `async () => {
  console.log("plain");
  console.info("informed");
  console.warn("careful");
  console.error("broken", { code: 7 });
  return mail.peek({});
}`;

interface Logged {
  level: string;
  logger?: string | undefined;
  data: unknown;
}

describe("programLogMessage", () => {
  it("maps console.error to error, console.warn to warning and the rest to info, without the sandbox's prefix", () => {
    expect(programLogMessage("[error] broken")).toEqual({ level: "error", data: "broken" });
    expect(programLogMessage("[warn] careful")).toEqual({ level: "warning", data: "careful" });
    expect(programLogMessage("plain [warn] inside")).toEqual({ level: "info", data: "plain [warn] inside" });
  });
});

describe("a program's console lines as MCP log messages", () => {
  it("a 2025-11-25 session gets the lines at or above the level logging/setLevel asked for", async () => {
    const { runtime } = mailRuntime();
    const url = await serveHandler({ runtime, authorize: byUser });
    const client = await clientAs(url, "alice");
    const logged: Logged[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logged.push(notification.params);
    });
    await client.setLoggingLevel("warning");
    const out = await client.callTool({ name: "codemode", arguments: { code: PROGRAM } });
    expect(out.isError).toBeFalsy();
    expect(logged).toEqual([
      { level: "warning", logger: "codemode", data: "careful" },
      { level: "error", logger: "codemode", data: 'broken {"code":7}' },
    ]);
    // Lowered, every line comes.
    logged.length = 0;
    await client.setLoggingLevel("debug");
    await client.callTool({ name: "codemode", arguments: { code: PROGRAM } });
    expect(logged.map((entry) => entry.level)).toEqual(["info", "info", "warning", "error"]);
  });

  it("a 2026-07-28 request gets the lines at or above its own log level, and none without one", async () => {
    const { runtime } = mailRuntime();
    const url = await serveHandler({ runtime, authorize: byUser, sessions: false });
    const client = new ModernClient(
      { name: "modern-log", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new ModernTransport(new URL(url), { requestInit: { headers: { "x-user": "alice" } } }));
    onTestFinished(() => client.close());
    const logged: Logged[] = [];
    client.setNotificationHandler("notifications/message", (notification) => {
      logged.push(notification.params);
    });
    await client.callTool({
      name: "codemode",
      arguments: { code: PROGRAM },
      _meta: { "io.modelcontextprotocol/logLevel": "error" },
    });
    expect(logged).toEqual([{ level: "error", logger: "codemode", data: 'broken {"code":7}' }]);
    logged.length = 0;
    const out = await client.callTool({ name: "codemode", arguments: { code: PROGRAM } });
    expect(out.isError).toBeFalsy();
    expect(logged).toEqual([]);
  });
});
