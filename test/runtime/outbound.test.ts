import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMockConnector } from "../../src/test/index.js";
import { InvalidOptionError } from "../../src/errors.js";
import { MAX_JOURNAL_VALUE_CHARS } from "../../src/runtime/journal/journal-values.js";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";
import { memoryClient, testRuntime } from "./runtime-fixture.js";

/** A loopback HTTP server recording every request it sees. */
interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

let server: Server;
let origin: string;
let other: Server;
let otherOrigin: string;
const seen: Seen[] = [];
const otherSeen: Seen[] = [];

function record(list: Seen[], request: IncomingMessage): Promise<Seen> {
  return new Promise((resolve) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      const entry = { method: request.method ?? "", path: request.url ?? "", headers: request.headers, body };
      list.push(entry);
      resolve(entry);
    });
  });
}

function listen(target: Server): Promise<string> {
  return new Promise((resolve) => {
    target.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(target.address() as AddressInfo).port}`));
  });
}

beforeAll(async () => {
  let counter = 0;
  server = createServer((request, response) => {
    void record(seen, request).then((entry) => {
      if (entry.path === "/items" && entry.method === "GET") {
        response.writeHead(200, { "content-type": "application/json", "x-total": "2" });
        response.end(JSON.stringify([{ id: 1 }, { id: 2 }]));
      } else if (entry.path === "/items" && entry.method === "POST") {
        response.writeHead(201, "Created", { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            id: 3,
            received: JSON.parse(entry.body) as unknown,
            auth: entry.headers["authorization"] ?? null,
          }),
        );
      } else if (entry.path === "/counter") {
        counter += 1;
        response.writeHead(200, { "content-type": "text/plain" });
        response.end(`count ${counter}`);
      } else if (entry.path === "/missing") {
        response.writeHead(404, "Not Found", { "content-type": "text/plain" });
        response.end("no such thing");
      } else if (entry.path === "/hop") {
        response.writeHead(302, { location: "/items" });
        response.end();
      } else if (entry.path === "/escape") {
        response.writeHead(302, { location: `${otherOrigin}/secret` });
        response.end();
      } else if (entry.path === "/huge") {
        response.writeHead(200, { "content-type": "text/plain" });
        response.end("x".repeat(MAX_JOURNAL_VALUE_CHARS + 10));
      } else {
        response.writeHead(500, "Internal Server Error");
        response.end("boom");
      }
    });
  });
  other = createServer((request, response) => {
    void record(otherSeen, request).then(() => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end("other");
    });
  });
  origin = await listen(server);
  otherOrigin = await listen(other);
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => other.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
  otherSeen.length = 0;
});

function outboundRuntime(extra: { needsApproval?: (request: { method: string; url: string }) => boolean } = {}) {
  return testRuntime({ outbound: { fetch: globalThis.fetch, allow: [origin], ...extra } });
}

describe("outbound fetch", () => {
  it("without the option there is no fetch in the sandbox", async () => {
    const runtime = testRuntime({});
    const out = await runtime.execute({ code: "async () => [typeof fetch, typeof globalThis.fetch]" });
    expect(out).toMatchObject({ status: "completed", result: ["undefined", "undefined"] });
  });

  it("an allowed origin answers with status, headers, text and json", async () => {
    const runtime = outboundRuntime();
    const code = `async () => {
      const list = await fetch("${origin}/items");
      const items = await list.json();
      const created = await fetch("${origin}/items", { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer program" }, body: JSON.stringify({ name: "x" }) });
      const missing = await fetch("${origin}/missing");
      return {
        list: { status: list.status, ok: list.ok, total: list.headers.get("X-Total"), type: list.headers.get("content-type"), url: list.url, items },
        created: { status: created.status, statusText: created.statusText, body: await created.json() },
        missing: { status: missing.status, ok: missing.ok, statusText: missing.statusText, text: await missing.text() },
      };
    }`;
    const out = await runtime.execute({ code });
    expect(out).toMatchObject({
      status: "completed",
      result: {
        list: {
          status: 200,
          ok: true,
          total: "2",
          type: "application/json",
          url: `${origin}/items`,
          items: [{ id: 1 }, { id: 2 }],
        },
        created: {
          status: 201,
          statusText: "Created",
          body: { id: 3, received: { name: "x" }, auth: "Bearer program" },
        },
        missing: { status: 404, ok: false, statusText: "Not Found", text: "no such thing" },
      },
    });
    expect(seen.map((entry) => `${entry.method} ${entry.path}`)).toEqual(["GET /items", "POST /items", "GET /missing"]);
    expect(seen[1]?.headers["content-type"]).toBe("application/json");
    const detail = await runtime.execution(out.executionId);
    expect(detail?.calls.map((call) => `${call.connector}.${call.method} ${call.status}`)).toEqual([
      "outbound.fetch applied",
      "outbound.fetch applied",
      "outbound.fetch applied",
    ]);
  });

  it("a denied origin rejects inside the program, naming the allowed origins; the server sees nothing", async () => {
    const runtime = outboundRuntime();
    const code = `async () => {
      try { await fetch("${otherOrigin}/secret"); return "reached"; }
      catch (error) { return String(error.message); }
    }`;
    const out = await runtime.execute({ code });
    expect(out.status).toBe("completed");
    const message = (out as { result: string }).result;
    expect(message).toContain(`${otherOrigin} is not an allowed origin`);
    expect(message).toContain(`Allowed origins: ${origin}`);
    expect(otherSeen).toEqual([]);
  });

  it("a redirect to a denied origin is not followed; one to an allowed origin is", async () => {
    const runtime = outboundRuntime();
    const code = `async () => {
      const hop = await fetch("${origin}/hop");
      let escaped;
      try { await fetch("${origin}/escape"); escaped = "followed"; } catch (error) { escaped = error.message; }
      return { hop: [hop.status, hop.redirected, hop.url, await hop.json()], escaped };
    }`;
    const out = await runtime.execute({ code });
    expect(out).toMatchObject({
      status: "completed",
      result: { hop: [200, true, `${origin}/items`, [{ id: 1 }, { id: 2 }]] },
    });
    expect((out as { result: { escaped: string } }).result.escaped).toContain("redirected to");
    expect(otherSeen).toEqual([]);
  });

  it("replay after approval does not repeat a request, and the result equals a run without pauses", async () => {
    const approvals = createMockConnector("ops", {
      methods: { ship: { needsApproval: true, result: { shipped: true } } },
    });
    const code = `async () => {
      const first = await (await fetch("${origin}/counter")).text();
      const shipped = await ops.ship({ first });
      const second = await (await fetch("${origin}/counter")).text();
      return { first, shipped, second };
    }`;
    const paused = testRuntime({
      connectors: { ops: approvals },
      outbound: { fetch: globalThis.fetch, allow: [origin] },
    });
    const out = await paused.execute({ code });
    expect(out.status).toBe("paused");
    expect(seen.length).toBe(1);
    const resumed = await paused.approve({ executionId: out.executionId });
    expect(seen.length).toBe(2);
    expect(resumed).toMatchObject({
      status: "completed",
      result: { first: "count 1", shipped: { shipped: true }, second: "count 2" },
    });

    // The same program without a pause, against a counter advanced by the same amount.
    const unpaused = testRuntime({
      connectors: { ops: createMockConnector("ops", { methods: { ship: { result: { shipped: true } } } }) },
      outbound: { fetch: globalThis.fetch, allow: [origin] },
    });
    seen.length = 0;
    const direct = await unpaused.execute({ code });
    expect(seen.length).toBe(2);
    const shift = (value: string) => `count ${Number(value.split(" ")[1]) - 2}`;
    const result = (direct as { result: { first: string; shipped: unknown; second: string } }).result;
    expect({ ...result, first: shift(result.first), second: shift(result.second) }).toEqual(
      (resumed as { result: unknown }).result,
    );
  });

  it("through the worker executor, approved by a second runtime on the same store, each request is sent once", async () => {
    const executor = new QuickJSExecutor({ isolation: "worker-thread", poolSize: 1 });
    try {
      const store = memoryClient();
      const options = {
        store,
        executor,
        outbound: {
          fetch: globalThis.fetch,
          allow: [origin],
          needsApproval: (request: { method: string }) => request.method === "DELETE",
        },
      };
      const code = `async () => {
        const before = await (await fetch("${origin}/counter")).text();
        const gone = await fetch("${origin}/items", { method: "DELETE" });
        const after = await (await fetch("${origin}/counter")).text();
        return { before, gone: gone.status, after };
      }`;
      const out = await testRuntime(options).execute({ code });
      expect(out).toMatchObject({
        status: "paused",
        pending: [{ connector: "outbound", method: "fetch", args: { method: "DELETE" } }],
      });
      const resumed = await testRuntime(options).approve({ executionId: out.executionId });
      expect(resumed.status).toBe("completed");
      expect(seen.map((entry) => `${entry.method} ${entry.path}`)).toEqual([
        "GET /counter",
        "DELETE /items",
        "GET /counter",
      ]);
      const { before, after } = (resumed as { result: { before: string; after: string } }).result;
      expect(Number(after.split(" ")[1]) - Number(before.split(" ")[1])).toBe(1);
    } finally {
      await executor.dispose();
    }
  });

  it("needsApproval holds a request until approved; the approved request is sent once", async () => {
    const asked: Array<{ method: string; url: string }> = [];
    const runtime = outboundRuntime({
      needsApproval: (request) => {
        asked.push(request);
        return request.method !== "GET";
      },
    });
    const code = `async () => {
      const items = await (await fetch("${origin}/items")).json();
      const created = await fetch("${origin}/items", { method: "post", body: JSON.stringify({ name: "y" }) });
      return { count: items.length, created: created.status };
    }`;
    const out = await runtime.execute({ code });
    expect(out).toMatchObject({
      status: "paused",
      pending: [{ connector: "outbound", method: "fetch", args: { url: `${origin}/items`, method: "POST" } }],
    });
    expect(seen.map((entry) => entry.method)).toEqual(["GET"]);
    expect(asked).toEqual([
      { method: "GET", url: `${origin}/items` },
      { method: "POST", url: `${origin}/items` },
    ]);
    const resumed = await runtime.approve({ executionId: out.executionId });
    expect(resumed).toMatchObject({ status: "completed", result: { count: 2, created: 201 } });
    expect(seen.map((entry) => entry.method)).toEqual(["GET", "POST"]);
  });

  it("a response over the journal limit fails the run with the limit advice", async () => {
    const runtime = outboundRuntime();
    const out = await runtime.execute({ code: `async () => (await fetch("${origin}/huge")).text()` });
    expect(out).toMatchObject({ status: "error", kind: "limit" });
    expect((out as { error: string }).error).toContain("pass a small reference");
  });

  it("the program can neither replace fetch nor bypass the allowlist through the host namespace", async () => {
    const runtime = outboundRuntime();
    const code = `async () => {
      let replaced;
      try { globalThis.fetch = () => "mine"; replaced = fetch === globalThis.fetch && typeof (await fetch("${origin}/items")).status; } catch (error) { replaced = "threw"; }
      let direct;
      try { await __codemode_host.fetch({ url: "${otherOrigin}/secret", method: "GET", headers: {} }); direct = "reached"; } catch (error) { direct = error.message; }
      return { replaced, direct };
    }`;
    const out = await runtime.execute({ code });
    const result = (out as { result: { replaced: unknown; direct: string } }).result;
    expect(["threw", "number"]).toContain(result.replaced);
    expect(result.direct).toContain("is not an allowed origin");
    expect(otherSeen).toEqual([]);
  });

  it("adds no host headers or credentials of its own", async () => {
    const runtime = outboundRuntime();
    await runtime.execute({ code: `async () => (await fetch("${origin}/items")).status` });
    expect(seen[0]?.headers["authorization"]).toBeUndefined();
    expect(seen[0]?.headers["cookie"]).toBeUndefined();
  });

  it("bad requests reject inside the program with a message to fix them", async () => {
    const runtime = outboundRuntime();
    const code = `async () => {
      const tries = [() => fetch("/relative"), () => fetch("file:///etc/passwd"), () => fetch("${origin}/items", { body: "x" }),
        () => fetch("${origin}/items", { method: "POST", body: { a: 1 } })];
      const out = [];
      for (const attempt of tries) { try { await attempt(); out.push("ok"); } catch (error) { out.push(error.message); } }
      return out;
    }`;
    const out = await runtime.execute({ code });
    const messages = (out as { result: string[] }).result;
    expect(messages[0]).toContain("not an absolute URL");
    expect(messages[1]).toContain("only http: and https:");
    expect(messages[2]).toContain("GET request cannot have a body");
    expect(messages[3]).toContain("JSON.stringify");
    expect(seen).toEqual([]);
  });

  it("search and describe find the global fetch only when it exists", async () => {
    const runtime = outboundRuntime();
    const out = await runtime.execute({
      code: `async () => [(await codemode.search("http request")).results[0].path, (await codemode.describe("fetch")).types]`,
    });
    const [path, types] = (out as { result: [string, string] }).result;
    expect(path).toBe("fetch");
    expect(types).toContain("declare function fetch(url: string");
    expect(types).toContain(origin);
    expect((await runtime.search("outbound")).results.map((result) => result.path)).not.toContain("outbound.fetch");
    expect(await testRuntime({}).describe("fetch")).toHaveProperty("error");
  });

  it("validates the option, naming the path", () => {
    const bad = (outbound: unknown) => () => testRuntime({ outbound: outbound as never });
    expect(bad({})).toThrow(InvalidOptionError);
    expect(bad({})).toThrow("outbound.fetch must be a fetch function");
    expect(bad({ fetch, allow: ["https://api.example.com/path"] })).toThrow(
      'outbound.allow[0] must be an origin like "https://api.example.com"',
    );
    expect(bad({ fetch, allow: ["ftp://x.example.com"] })).toThrow("outbound.allow[0]");
    expect(bad({ fetch, allow: [] })).toThrow("outbound.allow must be a non-empty array");
    expect(bad({ fetch, needsApproval: true })).toThrow("outbound.needsApproval must be a function");
    expect(() =>
      testRuntime({
        outbound: { fetch },
        connectors: { outbound: createMockConnector("outbound", { methods: { a: { result: 1 } } }) },
      }),
    ).toThrow("connectors.outbound is reserved");
  });
});
