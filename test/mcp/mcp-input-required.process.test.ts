/**
 * Approvals as a serverless deployment gets them from both eras of MCP clients: two processes serving the built
 * package's `createCodemodeMcpHandler` (`sessions: false`, `approvalLinks`, the inspector beside it) over one journal
 * file, behind a loopback balancer sending each request to the next instance. The SDK v2 client pinned to
 * 2026-07-28 gets `input_required` and retries: (a) a form answered by the person, (b) the signed link approved in
 * Chromium, (c) an approval made in a third process (this one); every round may land on either instance, each
 * approval has one effect, and `decidedBy` is journaled. A request state replayed, altered, expired, moved to
 * another call or program, or sent by another user changes nothing. The SDK v1 client (2025-11-25) does the same
 * through its revision's means: the `-32042` link and the retry id.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";
import { jsonSchema, tool } from "ai";
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCodemodeRuntime, type CodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { connector } from "../../src/connectors/connector.js";
import { chromiumPath } from "../support/chromium.js";
import { approveLinkInBrowser, type LinkHandlers, startLinkHandlers } from "./support/link-handlers.js";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const SECRET = "input-required-test-secret-0123456789abcdef";
/** How long a retry after an accepted link waits for the decision on the instances. */
const WAIT_MS = 60_000;
/** How long a link and a request state work on the short-lived instance. */
const SHORT_TTL_MS = 1500;
const MODERN = "2026-07-28";
/** Notes `item` (no approval), then buys it (approval): a second run shows as a second note. */
const NOTE_AND_BUY = (item: string) =>
  `async () => { await shop.note({ text: ${JSON.stringify(item)} }); return shop.buy({ item: ${JSON.stringify(item)}, quantity: 2 }); }`;
/** Buys two things, one pause after the other. */
const BUY_TWO = (first: string, second: string) =>
  `async () => { await shop.buy({ item: ${JSON.stringify(first)} }); return shop.buy({ item: ${JSON.stringify(second)} }); }`;

const executablePath = chromiumPath();
const inBrowser = it.skipIf(executablePath === undefined);

/** What the client's elicitation handler answers. */
interface ElicitAnswer {
  [key: string]: unknown;
  action: "accept" | "decline" | "cancel";
  content?: Record<string, string>;
}

/** An `input_required` result as the manual client gets it. */
interface InputRequired {
  resultType: "input_required";
  inputRequests: Record<string, { method: string; params: Record<string, unknown> }>;
  requestState: string;
}

/** A tool result. */
interface ToolResult {
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

function asInputRequired(value: unknown): InputRequired {
  expect(value).toMatchObject({ resultType: "input_required", requestState: expect.any(String) });
  return value as InputRequired;
}

/** The execution a request names (its form's or link's message says it). */
function executionOf(request: InputRequired): string {
  const message = String(Object.values(request.inputRequests)[0]?.params["message"] ?? "");
  return /execution (\S+?)\)/.exec(message)?.[1] ?? "";
}

/** The form field of the (one) call a form asks about, e.g. `call_2`. */
function fieldOf(request: InputRequired): string {
  const schema = request.inputRequests["approval"]?.params["requestedSchema"] as { required: string[] };
  return schema.required[0] ?? "";
}

const textOf = (result: ToolResult): string => (result.content ?? []).map((part) => part.text ?? "").join("");

describe("approvals of both MCP eras on two serverless instances behind a round-robin balancer", () => {
  let folder: string;
  let ledger: string;
  let deployment: LinkHandlers;
  let balancer: LinkHandlers["balancer"];
  let origin: string;
  let shortLived: LinkHandlers["shortLived"][number];
  /** The person's side in a third process (this one): the same connectors over the same journal. */
  let journal: CodemodeRuntime;
  const closers: Array<() => Promise<void>> = [];

  /** The instance (pid) each `tools/call` POST of a client was answered by, in order. */
  const recording =
    (served: string[]) =>
    async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const response = await fetch(input, init);
      if (typeof init?.body === "string" && init.body.includes('"tools/call"'))
        served.push(response.headers.get("x-instance") ?? "");
      return response;
    };

  /**
   * The SDK v2 client of `user`, pinned to 2026-07-28, fulfilling `elicitation/create` with `answer` (auto mode), or
   * handing `input_required` back (manual mode, `answer` undefined).
   */
  async function modernClient(
    user: string,
    {
      capabilities = { elicitation: { form: {} } },
      answer,
      served = [],
      url = balancer.url,
    }: {
      capabilities?: Record<string, unknown>;
      answer?: (params: Record<string, unknown>) => Promise<ElicitAnswer>;
      served?: string[];
      url?: string;
    } = {},
  ): Promise<ModernClient> {
    const client = new ModernClient(
      { name: `modern-${user}`, version: "1" },
      {
        capabilities,
        versionNegotiation: { mode: { pin: MODERN } },
        inputRequired: { autoFulfill: answer !== undefined },
      },
    );
    if (answer !== undefined)
      client.setRequestHandler("elicitation/create", (request) => answer(request.params as Record<string, unknown>));
    await client.connect(
      new ModernTransport(new URL(url), {
        requestInit: { headers: { "x-user": user } },
        fetch: recording(served),
      }),
    );
    closers.push(() => client.close());
    return client;
  }

  /** A `tools/call` of `codemode` by a manual client: the `input_required` or the tool result. */
  const callManually = (
    client: ModernClient,
    code: string,
    retry?: { requestState: string; inputResponses: Record<string, unknown> },
  ): Promise<unknown> =>
    client.request(
      { method: "tools/call", params: { name: "codemode", arguments: { code }, ...retry } },
      { allowInputRequired: true, timeout: WAIT_MS * 2 },
    );

  /** The SDK v1 client (2025-11-25) of `user`, declaring URL elicitation. */
  async function legacyClient(user: string, served: string[] = []): Promise<Client> {
    const client = new Client({ name: `legacy-${user}`, version: "1" }, { capabilities: { elicitation: { url: {} } } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(balancer.url), {
        requestInit: { headers: { "x-user": user } },
        fetch: recording(served),
      }),
    );
    closers.push(() => client.close());
    return client;
  }

  /** Effects of buying `item` (any instance or this process), one ledger line each. */
  const bought = (item: string): string[] =>
    existsSync(ledger)
      ? readFileSync(ledger, "utf8")
          .split("\n")
          .filter((line) => line.includes(` ${item} x`))
      : [];
  const noted = (item: string): string[] =>
    existsSync(ledger)
      ? readFileSync(ledger, "utf8")
          .split("\n")
          .filter((line) => line.endsWith(` note ${item}`))
      : [];

  const decidedBy = async (executionId: string) =>
    (await journal.execution(executionId, { scope: "ada" }))?.calls
      .filter((call) => call.decidedBy !== undefined)
      .map((call) => call.decidedBy);

  /** Opens `link` in Chromium signed in as `user`, approves every call; the page's final text. */
  const approveInBrowser = (link: string, user: string, screenshot?: string): Promise<string> =>
    approveLinkInBrowser({ executablePath, link, user, origin, screenshot });

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "codemode-mcp-input-required-"));
    ledger = join(folder, "ledger.txt");
    const database = join(folder, "codemode.db");
    deployment = await startLinkHandlers({
      database,
      ledger,
      secret: SECRET,
      waitMs: WAIT_MS,
      shortLivedTtlsMs: [SHORT_TTL_MS],
    });
    ({ balancer, origin } = deployment);
    shortLived = deployment.shortLived[0]!;
    const shop = connector({
      note: tool({
        inputSchema: jsonSchema<{ text: string }>({ type: "object", properties: { text: { type: "string" } } }),
        execute: async ({ text }) => {
          appendFileSync(ledger, `${process.pid} note ${text}\n`);
          return "noted";
        },
      }),
      buy: tool({
        inputSchema: jsonSchema<{ item: string; quantity?: number }>({
          type: "object",
          properties: { item: { type: "string" }, quantity: { type: "number" } },
        }),
        needsApproval: true,
        execute: async ({ item, quantity = 1 }) => {
          appendFileSync(ledger, `${process.pid} ${item} x${quantity}\n`);
          return `bought ${quantity} ${item}`;
        },
      }),
    });
    journal = createCodemodeRuntime({ connectors: { shop }, store: `file:${database}` });
  });

  afterAll(async () => {
    for (const close of closers) await close().catch(() => undefined);
    await deployment?.stop();
    await journal?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("2026-07-28 (a): discover, list, search; the form through input_required, the retry resumes once", async () => {
    const forms: Array<Record<string, unknown>> = [];
    const served: string[] = [];
    const ada = await modernClient("ada", {
      served,
      answer: async (params) => {
        forms.push(params);
        const { required } = params["requestedSchema"] as { required: string[] };
        return { action: "accept", content: Object.fromEntries(required.map((field) => [field, "approve"])) };
      },
    });
    expect(ada.getNegotiatedProtocolVersion()).toBe(MODERN);
    const { tools } = await ada.listTools();
    expect(tools.map((listed) => listed.name)).toEqual(expect.arrayContaining(["codemode", "codemode_search"]));
    const found = (await ada.callTool({ name: "codemode_search", arguments: { query: "buy an item" } })) as ToolResult;
    expect(textOf(found)).toContain("shop.buy");

    const code = NOTE_AND_BUY("tea");
    const result = (await ada.callTool({ name: "codemode", arguments: { code } })) as ToolResult;
    expect(result.structuredContent).toMatchObject({ status: "completed", result: "bought 2 tea" });
    // One form, showing the whole call; the call and its retry were answered by both instances.
    expect(forms).toHaveLength(1);
    expect(forms[0]).toMatchObject({ mode: "form" });
    expect(String(forms[0]!["message"])).toContain('shop.buy {"item":"tea","quantity":2}');
    expect(served).toHaveLength(3);
    expect(new Set(served.slice(1)).size).toBe(2);
    expect(noted("tea")).toHaveLength(1);
    expect(bought("tea")).toHaveLength(1);
    const executionId = String(result.structuredContent?.["executionId"]);
    expect(await decidedBy(executionId)).toEqual(["mcp:ada"]);
  });

  inBrowser("2026-07-28 (b): the signed link approved in Chromium, then the retry returns the outcome", async () => {
    const links: string[] = [];
    const texts: string[] = [];
    const ada = await modernClient("ada", {
      capabilities: { elicitation: { url: {} } },
      answer: async (params) => {
        expect(params).toMatchObject({ mode: "url" });
        expect(params).not.toHaveProperty("elicitationId");
        links.push(String(params["url"]));
        const screenshot = process.env["UPDATE_FIGURES"] === "1" ? join(folder, "link.png") : undefined;
        texts.push(await approveInBrowser(String(params["url"]), "ada", screenshot));
        if (screenshot !== undefined) copyFileSync(screenshot, join(REPO, "docs/mcp-input-required-link.png"));
        return { action: "accept" };
      },
    });
    const code = NOTE_AND_BUY("jam");
    const result = (await ada.callTool({ name: "codemode", arguments: { code } })) as ToolResult;
    expect(links).toHaveLength(1);
    expect(links[0]).toMatch(new RegExp(`^${origin}/codemode/link/[\\w-]+\\.[\\w-]+$`));
    expect(texts[0]).toMatch(/1 of 1 call\(s\) approved, as ada\. The program continued and completed\./);
    expect(result.structuredContent).toMatchObject({ status: "completed", result: "bought 2 jam" });
    // The link is not in the result the model reads.
    expect(JSON.stringify(result)).not.toContain(links[0]);
    expect(noted("jam")).toHaveLength(1);
    expect(bought("jam")).toHaveLength(1);
    expect(await decidedBy(String(result.structuredContent?.["executionId"]))).toEqual(["ada"]);
  });

  it("2026-07-28 (c): approved in a third process, the retry returns the outcome; replays change nothing", async () => {
    const ada = await modernClient("ada");
    const code = NOTE_AND_BUY("honey");
    const asked = asInputRequired(await callManually(ada, code));
    expect(Object.keys(asked.inputRequests)).toEqual(["approval"]);
    // No argument value in the state the client holds.
    expect(asked.requestState).not.toMatch(/honey|ada/);
    const executionId = executionOf(asked);
    await journal.approve({ executionId, scope: "ada", decidedBy: "grace (cli)" });
    expect(bought("honey")).toHaveLength(1);
    expect(bought("honey")[0]).toMatch(new RegExp(`^${process.pid} `));

    const answer = { approval: { action: "accept", content: { [fieldOf(asked)]: "reject" } } };
    for (const inputResponses of [{}, answer, answer]) {
      const retried = (await callManually(ada, code, {
        requestState: asked.requestState,
        inputResponses,
      })) as ToolResult;
      expect(retried.structuredContent).toMatchObject({ status: "completed", executionId, result: "bought 2 honey" });
    }
    expect(noted("honey")).toHaveLength(1);
    expect(bought("honey")).toHaveLength(1);
    expect(await decidedBy(executionId)).toEqual(["grace (cli)"]);
  });

  it("2026-07-28: a state altered, expired, of another user, another program or moved to another call decides nothing", async () => {
    const ada = await modernClient("ada");
    const bob = await modernClient("bob");
    const code = BUY_TWO("cake", "pie");
    const first = asInputRequired(await callManually(ada, code));
    const executionId = executionOf(first);
    const approveFirst = { approval: { action: "accept", content: { [fieldOf(first)]: "approve" } } };
    const at = first.requestState.length - 50;
    const flipped = `${first.requestState.slice(0, at)}${first.requestState[at] === "A" ? "B" : "A"}${first.requestState.slice(at + 1)}`;
    const refusals: Array<[unknown, RegExp]> = [
      [await callManually(ada, code, { requestState: flipped, inputResponses: approveFirst }), /forged or altered/],
      [
        await callManually(ada, code, { requestState: "cmrs1.e30.x", inputResponses: approveFirst }),
        /not one this server gave/,
      ],
      [
        await callManually(bob, code, { requestState: first.requestState, inputResponses: approveFirst }),
        /another user/,
      ],
      [
        await callManually(ada, BUY_TWO("gold", "pie"), {
          requestState: first.requestState,
          inputResponses: approveFirst,
        }),
        /another program/,
      ],
    ];
    for (const [result, message] of refusals) {
      expect(result).toMatchObject({ isError: true });
      expect(textOf(result as ToolResult)).toMatch(message);
      expect(textOf(result as ToolResult)).toMatch(/Nothing was approved, rejected or run/);
    }
    // The model's input cannot carry a decision: a state and an answer inside the tool's arguments are no retry.
    await ada.request(
      {
        method: "tools/call",
        params: {
          name: "codemode",
          arguments: { code, requestState: first.requestState, inputResponses: approveFirst, ...approveFirst },
        },
      },
      { allowInputRequired: true, timeout: WAIT_MS },
    );
    expect((await journal.execution(executionId, { scope: "ada" }))?.status).toBe("paused");
    expect(bought("cake")).toEqual([]);

    // Expired: a state from the instance whose states live 1.5 s, retried through the balancer after that.
    const shortClient = await modernClient("ada", { url: shortLived.url });
    const shortCode = NOTE_AND_BUY("figs");
    const short = asInputRequired(await callManually(shortClient, shortCode));
    await new Promise((resolve) => setTimeout(resolve, SHORT_TTL_MS + 500));
    const expired = (await callManually(ada, shortCode, {
      requestState: short.requestState,
      inputResponses: { approval: { action: "accept", content: { [fieldOf(short)]: "approve" } } },
    })) as ToolResult;
    expect(expired.isError).toBe(true);
    expect(textOf(expired)).toMatch(/expired/);
    expect((await journal.execution(executionOf(short), { scope: "ada" }))?.status).toBe("paused");
    expect(bought("figs")).toEqual([]);

    // The first approval resumes the program, which pauses again on the second call: a new request and state.
    const second = asInputRequired(
      await callManually(ada, code, { requestState: first.requestState, inputResponses: approveFirst }),
    );
    expect(bought("cake")).toHaveLength(1);
    expect(fieldOf(second)).not.toBe(fieldOf(first));
    // The first state, moved to the second call (its approval answered), decides nothing: the call is asked anew.
    const moved = asInputRequired(
      await callManually(ada, code, {
        requestState: first.requestState,
        inputResponses: { approval: { action: "accept", content: { [fieldOf(second)]: "approve" } } },
      }),
    );
    expect(fieldOf(moved)).toBe(fieldOf(second));
    expect(bought("pie")).toEqual([]);
    expect((await journal.execution(executionId, { scope: "ada" }))?.status).toBe("paused");
    const done = (await callManually(ada, code, {
      requestState: second.requestState,
      inputResponses: { approval: { action: "accept", content: { [fieldOf(second)]: "approve" } } },
    })) as ToolResult;
    expect(done.structuredContent).toMatchObject({ status: "completed", result: "bought 1 pie" });
    expect(bought("cake")).toHaveLength(1);
    expect(bought("pie")).toHaveLength(1);
    expect(await decidedBy(executionId)).toEqual(["mcp:ada", "mcp:ada"]);
  });

  inBrowser(
    "2025-11-25 (the SDK v1 client): initialize, list, search; the link approved in Chromium, then the retry",
    async () => {
      const served: string[] = [];
      const ada = await legacyClient("ada", served);
      expect(ada.getServerVersion()?.name).toBe("ai-codemode");
      const { tools } = await ada.listTools();
      expect(tools.map((listed) => listed.name)).toEqual(expect.arrayContaining(["codemode", "codemode_search"]));
      const found = (await ada.callTool({
        name: "codemode_search",
        arguments: { query: "buy an item" },
      })) as ToolResult;
      expect(textOf(found)).toContain("shop.buy");

      const code = NOTE_AND_BUY("salt");
      const error = await ada.callTool({ name: "codemode", arguments: { code } }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(UrlElicitationRequiredError);
      const [elicitation] = (error as UrlElicitationRequiredError).elicitations;
      expect(await approveInBrowser(elicitation!.url, "ada")).toMatch(/The program continued and completed\./);
      const retried = (await ada.callTool({
        name: "codemode",
        arguments: { code, retry: elicitation!.elicitationId },
      })) as ToolResult;
      expect(retried.structuredContent).toMatchObject({ status: "completed", result: "bought 2 salt" });
      expect(new Set(served.slice(-2)).size).toBe(2);
      expect(noted("salt")).toHaveLength(1);
      expect(bought("salt")).toHaveLength(1);
      expect(await decidedBy(String(retried.structuredContent?.["executionId"]))).toEqual(["ada"]);
    },
  );

  it("2025-11-25 (the SDK v1 client): approved in a third process, then the retry; another user's retry runs nothing", async () => {
    const ada = await legacyClient("ada");
    const code = NOTE_AND_BUY("pepper");
    const error = await ada.callTool({ name: "codemode", arguments: { code } }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    const { message, elicitations } = error as UrlElicitationRequiredError;
    const executionId = /Execution (\S+) paused/.exec(message)?.[1] ?? "";
    await journal.approve({ executionId, scope: "ada", decidedBy: "grace (cli)" });
    const retry = elicitations[0]!.elicitationId;
    for (const _ of [0, 1]) {
      const retried = (await ada.callTool({ name: "codemode", arguments: { code, retry } })) as ToolResult;
      expect(retried.structuredContent).toMatchObject({ status: "completed", executionId, result: "bought 2 pepper" });
    }
    const bob = await legacyClient("bob");
    const refused = (await bob.callTool({ name: "codemode", arguments: { code, retry } })) as ToolResult;
    expect(refused.isError).toBe(true);
    expect(noted("pepper")).toHaveLength(1);
    expect(bought("pepper")).toHaveLength(1);
    expect(await decidedBy(executionId)).toEqual(["grace (cli)"]);
  });
});
