/**
 * docs/mcp-server.md's approval-link setup, run as written: its `lib/codemode-links.ts` block (imports resolved as
 * Next.js would, the placeholder URL replaced by the test server's) behind a real node:http server, driven by real
 * HTTP requests. Alice's program pauses with a link (`-32042` to the MCP SDK's client); Bob, signed in, can neither
 * list, read nor decide her execution through the inspector's API nor open her link; Alice's link decides it once
 * and her client's retry returns the result.
 */
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, onTestFinished } from "vitest";
import { createCodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { fetchRequestListener } from "../../src/cli/fetch-over-node-http.js";
import { createMockConnector } from "../../src/test/mock-connector.js";
import { tempFolder } from "../support/temp-folder.js";
import { expectNothingForAnotherUser } from "../mcp/support/another-user.js";
import { setEnvForTest } from "../support/test-env.js";

const ROOT = resolve(import.meta.dirname, "../..");
const PAGE = readFileSync(join(ROOT, "docs/mcp-server.md"), "utf8");
const APP_CODEMODE = fileURLToPath(new URL("../mcp/fixtures/docs-route-codemode.ts", import.meta.url));
const APP_AUTH = fileURLToPath(new URL("./fixtures/docs-auth.ts", import.meta.url));
/** The page's placeholder for where the app serves the inspector: the one thing a reader changes. */
const PLACEHOLDER_URL = "https://app.example.com/codemode";
const BUY = "async () => shop.buy({ item: 'the payment' })";

/** The page's approval-link setup: the ```ts block that starts with its path. */
function linksBlock(): string {
  const block = /```ts\n(\/\/ lib\/codemode-links\.ts[\s\S]*?)```/.exec(PAGE)?.[1];
  expect(block).toBeDefined();
  return block ?? "";
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

type Handler = (request: Request) => Promise<Response>;

/** The block's routes on 127.0.0.1, mounted where its comments say: the MCP route and the inspector's. */
async function serveDocumentedRoutes(folder: string): Promise<{ origin: string }> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  onTestFinished(() => new Promise<void>((done) => server.close(() => done())));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  expect(linksBlock()).toContain(`"${PLACEHOLDER_URL}"`);
  const file = join(folder, "codemode-links.ts");
  writeFileSync(
    file,
    resolveImports(linksBlock(), {
      "ai-codemode/inspector": join(ROOT, "src/inspector.ts"),
      "ai-codemode/mcp": join(ROOT, "src/mcp.ts"),
      "@/lib/auth": APP_AUTH,
      "@/lib/codemode": APP_CODEMODE,
    }).replace(`"${PLACEHOLDER_URL}"`, JSON.stringify(`${origin}/codemode`)),
  );
  const routes = (await import(pathToFileURL(file).href)) as { mcp: Handler; inspector: Handler };
  server.on(
    "request",
    fetchRequestListener((request) =>
      (new URL(request.url).pathname.startsWith("/codemode") ? routes.inspector : routes.mcp)(request),
    ),
  );
  return { origin };
}

describe("docs/mcp-server.md, approvals by link", () => {
  it("runs as written: Bob, signed in, cannot list, read or decide Alice's execution; her own link decides it once", async () => {
    const folder = tempFolder("codemode-docs-links-");
    setEnvForTest("CODEMODE_LINK_SECRET", "docs-link-route-test-secret-0123456789");
    const shop = createMockConnector("shop", { methods: { buy: { needsApproval: true, result: "paid" } } });
    const runtime = createCodemodeRuntime({ connectors: { shop }, store: `file:${join(folder, "codemode.db")}` });
    onTestFinished(() => runtime.close());
    const { app } = (await import(APP_CODEMODE)) as typeof import("../mcp/fixtures/docs-route-codemode.js");
    app.runtime = runtime;
    const { origin } = await serveDocumentedRoutes(folder);

    // Alice's MCP client (her session cookie) runs a payment: it pauses, and the link goes to her.
    const client = new Client({ name: "alice", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${origin}/api/mcp`), {
        requestInit: { headers: { cookie: "user=alice" } },
      }),
    );
    onTestFinished(() => client.close());
    const paused = await client.callTool({ name: "codemode", arguments: { code: BUY } }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(paused).toBeInstanceOf(UrlElicitationRequiredError);
    const [elicitation] = (paused as UrlElicitationRequiredError).elicitations;
    const link = elicitation?.url ?? "";
    expect(link.startsWith(`${origin}/codemode/link/`)).toBe(true);
    const [execution] = await runtime.executions(1, { scope: "alice" });
    const executionId = execution?.executionId ?? "";
    expect(execution?.status).toBe("paused");

    // Bob, signed in, through the same route: the API shows him none of it and decides nothing of it.
    const bob = { cookie: "user=bob" };
    const api = `${origin}/codemode/api`;
    await expectNothingForAnotherUser({ api, origin, headers: bob, executionId, link, secretWord: "the payment" });
    // Signed out: nothing at all.
    expect((await fetch(`${api}/executions`)).status).toBe(401);
    expect((await fetch(link)).status).toBe(401);
    expect(shop.ledger.count("shop.buy")).toBe(0);
    expect(await runtime.execution(executionId)).toMatchObject({
      status: "paused",
      calls: [{ seq: 1, status: "pending" }],
    });

    // Alice sees her execution in the inspector, and her link decides it, once.
    const own = (await (await fetch(`${api}/executions`, { headers: { cookie: "user=alice" } })).json()) as {
      executions: Array<{ executionId: string }>;
    };
    expect(own.executions.map((row) => row.executionId)).toEqual([executionId]);
    const page = await fetch(link, { headers: { cookie: "user=alice" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("the payment");
    const decide = () =>
      fetch(link, {
        method: "POST",
        headers: { cookie: "user=alice", origin, "content-type": "application/x-www-form-urlencoded" },
        body: "choice-1=approve",
      });
    const decided = await decide();
    expect(decided.status).toBe(200);
    expect(await decided.text()).toMatch(/1 of 1 call\(s\) approved, as alice\./);
    expect((await decide()).status).toBe(409);
    expect(shop.ledger.count("shop.buy")).toBe(1);
    expect((await runtime.execution(executionId))?.calls.map((call) => call.decidedBy)).toEqual(["alice"]);

    // Her client's retry (with the retry id it was given) returns the result without running anything again.
    const retried = await client.callTool({
      name: "codemode",
      arguments: { code: BUY, retry: elicitation?.elicitationId ?? "" },
    });
    expect(retried.structuredContent).toMatchObject({ status: "completed", result: "paid" });
    expect(shop.ledger.count("shop.buy")).toBe(1);
  });
});
