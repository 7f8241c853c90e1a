/**
 * A `createCodemodeMcpHandler` served over real HTTP on 127.0.0.1 (Node's `http` server and the
 * CLI's Fetch adapter), and MCP SDK clients that reach it as a given user (an `x-user` header the
 * test's `authorize` reads) and answer approval forms. Everything is closed when the test ends.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { tool } from "ai";
import { onTestFinished } from "vitest";
import { z } from "zod";
import { fetchRequestListener } from "../../../src/cli/fetch-over-node-http.js";
import { connector } from "../../../src/connectors/connector.js";
import { createCodemodeRuntime, type CodemodeRuntime } from "../../../src/ai/create-codemode-runtime.js";
import {
  createCodemodeMcpHandler,
  type CodemodeMcpHandlerOptions,
} from "../../../src/mcp/create-codemode-mcp-handler.js";
import { tempFolder } from "../../support/temp-folder.js";

/** `authorize` of the tests: the `x-user` header is the scope. */
export const byUser: CodemodeMcpHandlerOptions["authorize"] = (request) => {
  const user = request.headers.get("x-user");
  return user === null ? false : { scope: user };
};

/** A runtime whose `mail.send` needs approval (any arguments) and whose `mail.peek` does not. */
export function mailRuntime(): { runtime: CodemodeRuntime; sent: unknown[] } {
  const sent: unknown[] = [];
  const mail = connector({
    send: tool({
      inputSchema: z.record(z.string(), z.unknown()),
      needsApproval: true,
      execute: async (args) => {
        sent.push(args);
        return "sent";
      },
    }),
    peek: tool({ inputSchema: z.object({}), execute: async () => "nothing new" }),
  });
  const folder = tempFolder("codemode-mcp-http-handler-");
  const runtime = createCodemodeRuntime({ connectors: { mail }, store: `file:${join(folder, "codemode.db")}` });
  onTestFinished(() => runtime.close());
  return { runtime, sent };
}

/** Serves a handler made with `options` on 127.0.0.1; resolves with its URL. */
export async function serveHandler(options: CodemodeMcpHandlerOptions): Promise<string> {
  const handler = createCodemodeMcpHandler(options);
  const server = createServer(fetchRequestListener(handler));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()));
  onTestFinished(async () => {
    await handler.close();
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

/** How the test's person answers a form. */
export type FormAnswer = (params: ElicitRequest["params"]) => ElicitResult | Promise<ElicitResult>;

/** An MCP SDK client of `url` as `user`; with `person`, it declares elicitation and answers forms with it. */
export async function clientAs(url: string, user: string, person?: FormAnswer): Promise<Client> {
  const client = new Client(
    { name: "http-handler-test", version: "1" },
    person === undefined ? {} : { capabilities: { elicitation: { form: {} } } },
  );
  if (person !== undefined) client.setRequestHandler(ElicitRequestSchema, (request) => person(request.params));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { "x-user": user } } }),
  );
  onTestFinished(() => client.close());
  return client;
}

/** Answers "approve" for every call the form offers it for, and "reject" where it offers only that. */
export const approveWhatIsOffered: FormAnswer = (params) => ({
  action: "accept",
  content: Object.fromEntries(
    Object.entries(
      (params as { requestedSchema: { properties: Record<string, { enum?: string[] }> } }).requestedSchema.properties,
    )
      .filter(([key]) => key.startsWith("call_"))
      .map(([key, field]) => [key, field.enum?.[0] ?? "approve"]),
  ),
});

/** Answers "approve" for every call, whatever the form offers (a client that ignores the choices). */
export const approveEverything: FormAnswer = (params) => ({
  action: "accept",
  content: Object.fromEntries(
    Object.keys((params as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema.properties)
      .filter((key) => key.startsWith("call_"))
      .map((key) => [key, "approve"]),
  ),
});
