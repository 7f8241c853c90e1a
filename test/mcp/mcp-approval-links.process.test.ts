/**
 * Approval links as a serverless deployment runs them: two processes, each serving the built package's MCP
 * handler (`sessions: false`, `approvalLinks`) and its inspector on one origin, behind a round-robin load
 * balancer on loopback, over one journal file. A paused `codemode` call answers `-32042` with a link; the person
 * opens it in Chromium and approves; the client's retry of the same call with the retry id it was given (the
 * elicitation's id) completes, on the other instance, with exactly one effect and the decision journaled with
 * `decidedBy`. Another signed-in user gets nothing of it through the inspector's API or the link. The official MCP
 * Inspector CLI is driven too.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCodemodeRuntime, type CodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { RETRY_HOLD_TOOL_CALL_PREFIX } from "../../src/runtime/journal/records.js";
import { chromiumPath } from "../support/chromium.js";
import { approveLinkInBrowser, type LinkHandlers, startLinkHandlers } from "./support/link-handlers.js";
import { expectNothingForAnotherUser } from "./support/another-user.js";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const INSPECTOR_CLI = join(REPO, "node_modules/.bin/mcp-inspector");
const SECRET = "approval-links-test-secret-0123456789abcdef";
const BUY = (item: string) => `async () => shop.buy({ item: ${JSON.stringify(item)} })`;

const executablePath = chromiumPath();

/** The tests that open a link in Chromium. */
const inBrowser = it.skipIf(executablePath === undefined);

describe("approval links behind a round-robin load balancer", () => {
  let folder: string;
  let ledger: string;
  let deployment: LinkHandlers;
  let proxy: LinkHandlers["balancer"];
  let origin: string;
  let journal: CodemodeRuntime;
  const clients: Client[] = [];

  /** Which instance (pid) answers the next request through the load balancer. */
  async function nextInstance(): Promise<string> {
    const probe = await fetch(`${origin}/mcp`, { method: "GET" });
    await probe.arrayBuffer();
    return probe.headers.get("x-instance") ?? "";
  }

  /** Sends probes until the request after them goes to an instance other than `pid`. */
  async function steerAwayFrom(pid: string): Promise<void> {
    while ((await nextInstance()) !== pid) {
      /* the probe went to the other one: the next request comes back to `pid`; probe again */
    }
  }

  /** An MCP SDK client of `user` declaring URL-mode elicitation; `served` records the instance of each tools/call. */
  async function clientOf(user: string, served: string[]): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL(proxy.url), {
      requestInit: { headers: { "x-user": user } },
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (typeof init?.body === "string" && init.body.includes('"tools/call"'))
          served.push(response.headers.get("x-instance") ?? "");
        return response;
      },
    });
    const client = new Client({ name: `links-${user}`, version: "1" }, { capabilities: { elicitation: { url: {} } } });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  /** The `-32042` error a paused call answers with. */
  async function linkRequired(call: Promise<unknown>): Promise<UrlElicitationRequiredError> {
    const error = await call.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    return error as UrlElicitationRequiredError;
  }

  /** Opens `link` in Chromium signed in as `user`, approves every call, and returns the page's final text. */
  const approveInBrowser = (link: string, user: string, screenshot?: string): Promise<string> =>
    approveLinkInBrowser({ executablePath, link, user, origin, screenshot });

  const effects = (item: string): string[] =>
    existsSync(ledger)
      ? readFileSync(ledger, "utf8")
          .split("\n")
          .filter((line) => line.includes(` ${item} `))
      : [];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "codemode-mcp-links-"));
    ledger = join(folder, "ledger.txt");
    const database = join(folder, "codemode.db");
    // The public origin is the load balancer's: links point at it, and it serves both routes.
    deployment = await startLinkHandlers({ database, ledger, secret: SECRET, waitMs: 3000 });
    ({ balancer: proxy, origin } = deployment);
    journal = createCodemodeRuntime({ store: `file:${database}` });
  });

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await deployment?.stop();
    await journal?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  inBrowser(
    "the MCP SDK client: -32042 with the link, approved in Chromium, the retry completes on the other instance once",
    async () => {
      const served: string[] = [];
      const ada = await clientOf("ada", served);
      const paused = await linkRequired(ada.callTool({ name: "codemode", arguments: { code: BUY("tea") } }));
      expect(paused.code).toBe(ErrorCode.UrlElicitationRequired);
      const [elicitation] = paused.elicitations;
      expect(elicitation?.mode).toBe("url");
      expect(elicitation?.url).toMatch(new RegExp(`^${origin}/codemode/link/[\\w-]+\\.[\\w-]+$`));
      // The model-facing message never carries the link.
      expect(paused.message).not.toContain(elicitation!.url);
      expect(paused.message).toContain(`"retry": ${JSON.stringify(elicitation?.elicitationId)}`);
      expect(effects("tea")).toEqual([]);

      const screenshot = process.env["UPDATE_FIGURES"] === "1" ? join(folder, "link.png") : undefined;
      const text = await approveInBrowser(elicitation!.url, "ada", screenshot);
      if (screenshot !== undefined) copyFileSync(screenshot, join(REPO, "docs/mcp-approval-link.png"));
      expect(text).toMatch(/1 of 1 call\(s\) approved, as ada\. The program continued and completed\./);
      expect(effects("tea")).toHaveLength(1);

      // The client echoes the elicitation's id as the retry id: the call it names, whichever instance answers.
      await steerAwayFrom(served[0]!);
      const retried = await ada.callTool({
        name: "codemode",
        arguments: { code: BUY("tea"), retry: elicitation!.elicitationId },
      });
      expect(retried.structuredContent).toMatchObject({ status: "completed", result: "bought 1 tea" });
      expect(served[1]).not.toBe(served[0]);
      expect(effects("tea")).toHaveLength(1);
      const [execution] = (await journal.executions(5, { scope: "ada" })).filter((e) => e.code === BUY("tea"));
      const detail = await journal.execution(execution!.executionId, { scope: "ada" });
      expect(detail?.calls.map((call) => call.decidedBy)).toEqual(["ada"]);

      // The same program without the retry id is a new run, which pauses for a new link.
      const again = await linkRequired(ada.callTool({ name: "codemode", arguments: { code: BUY("tea") } }));
      expect(again.elicitations[0]?.url).not.toBe(elicitation!.url);
      expect(effects("tea")).toHaveLength(1);
    },
  );

  it("another signed-in user cannot list, read or decide an owner's execution through the inspector, nor open the link", async () => {
    const ada = await clientOf("ada", []);
    const paused = await linkRequired(ada.callTool({ name: "codemode", arguments: { code: BUY("a payment") } }));
    const link = paused.elicitations[0]!.url;
    const [execution] = (await journal.executions(5, { scope: "ada" })).filter((e) => e.code === BUY("a payment"));
    const executionId = execution!.executionId;
    const bob = { cookie: "user=bob" };
    const api = `${origin}/codemode/api`;

    // Through either instance (the load balancer alternates), Bob gets none of Ada's execution.
    for (const _ of [0, 1]) {
      await expectNothingForAnotherUser({ api, origin, headers: bob, executionId, link, secretWord: "a payment" });
    }
    expect(effects("a payment")).toEqual([]);
    expect((await journal.execution(executionId))?.status).toBe("paused");

    // Ada's own link still decides it, once; her retry returns the result.
    const adaPosts = await fetch(link, {
      method: "POST",
      headers: { cookie: "user=ada", origin, "content-type": "application/x-www-form-urlencoded" },
      body: "choice-1=approve",
    });
    expect(adaPosts.status).toBe(200);
    expect(await adaPosts.text()).toMatch(/approved, as ada/);
    const retried = await ada.callTool({
      name: "codemode",
      arguments: { code: BUY("a payment"), retry: paused.elicitations[0]!.elicitationId },
    });
    expect(retried.structuredContent).toMatchObject({ status: "completed", result: "bought 1 a payment" });
    expect(effects("a payment")).toHaveLength(1);
    expect((await journal.execution(executionId))?.calls.map((call) => call.decidedBy)).toEqual(["ada"]);
  });

  inBrowser("the link is refused to another owner and works once, through either instance", async () => {
    const ada = await clientOf("ada", []);
    const paused = await linkRequired(ada.callTool({ name: "codemode", arguments: { code: BUY("jam") } }));
    const link = paused.elicitations[0]!.url;
    const asBob = await fetch(link, { headers: { cookie: "user=bob" } });
    expect(asBob.status).toBe(403);
    expect(await approveInBrowser(link, "ada")).toMatch(/approved, as ada/);
    for (const _ of [0, 1]) {
      const reused = await fetch(link, { headers: { cookie: "user=ada" } });
      expect(reused.status).toBe(409);
    }
    expect(effects("jam")).toHaveLength(1);
  });

  inBrowser(
    "the MCP Inspector CLI: the paused call waits silently; once approved by link, the CLI reads the result by id",
    async () => {
      /** `mcp-inspector --cli` calling `tool` with `key=value` arguments, as ada. */
      const runCli = ([tool, ...toolArgs]: string[], timeoutMs: number) =>
        new Promise<{ status: number | null; output: string }>((resolve) => {
          const cli = spawn(
            INSPECTOR_CLI,
            [
              "--cli",
              proxy.url,
              "--transport",
              "http",
              "--method",
              "tools/call",
              "--tool-name",
              tool!,
              ...toolArgs.flatMap((arg) => ["--tool-arg", arg]),
              "--header",
              "x-user: ada",
            ],
            { stdio: ["ignore", "pipe", "pipe"] },
          );
          let output = "";
          cli.stdout.on("data", (chunk: Buffer) => {
            output += chunk.toString();
          });
          cli.stderr.on("data", (chunk: Buffer) => {
            output += chunk.toString();
          });
          const timer = setTimeout(() => cli.kill("SIGTERM"), timeoutMs);
          cli.once("exit", (status) => {
            clearTimeout(timer);
            resolve({ status, output });
          });
        });

      // The CLI declares no elicitation and has no way to show a -32042 link: it waits on a link nothing in CLI
      // mode can open (killed after 8 s) or gives up, depending on its timers; either way no link, nothing ran.
      const code = BUY("honey");
      const first = await runCli(["codemode", `code=${code}`], 8000);
      expect(first.output).not.toContain("bought 1 honey");
      expect(first.output).not.toMatch(/link\//);
      expect(effects("honey")).toEqual([]);
      const [execution] = (await journal.executions(5, { scope: "ada" })).filter((listed) => listed.code === code);
      expect(execution?.status).toBe("paused");

      // The person gets the link another way (here: an SDK client's retry with the call's retry id, which the CLI
      // never showed: read from the journal, answered -32042 once the wait ends).
      const detail = await journal.execution(execution!.executionId, { scope: "ada" });
      const retry = `${execution!.executionId}.${detail!.toolCallId!.slice(RETRY_HOLD_TOOL_CALL_PREFIX.length)}`;
      const ada = await clientOf("ada", []);
      const paused = await linkRequired(
        ada.callTool({ name: "codemode", arguments: { code, retry } }, undefined, { timeout: 30_000 }),
      );
      expect(paused.elicitations[0]?.elicitationId).toBe(retry);
      await approveInBrowser(paused.elicitations[0]!.url, "ada");

      // The CLI reads the outcome by execution id, or retries with the id; either runs nothing again.
      const outcome = await runCli(["codemode_outcome", `executionId=${execution!.executionId}`], 30_000);
      expect(outcome.status).toBe(0);
      expect(outcome.output).toContain("bought 1 honey");
      const second = await runCli(["codemode", `code=${code}`, `retry=${retry}`], 30_000);
      expect(second.status).toBe(0);
      expect(second.output).toContain("bought 1 honey");
      expect(effects("honey")).toHaveLength(1);
    },
  );
});
