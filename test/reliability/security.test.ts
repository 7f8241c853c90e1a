/**
 * Security (issue 7), through the whole runtime: a program cannot reach host
 * objects, another execution's data, methods that are not configured or the
 * credentials a connector holds; it cannot forge the journal through the host
 * namespace behind `codemode`; an approval id for one call cannot approve
 * another; names from users (snippets, runtime names, method names) cannot
 * inject SQL or break out of the sandbox's globals. A hostile API (issue 14) cannot make the
 * OpenAPI connector leave the operation's path, carry credentials to another origin or hand
 * an echoed credential to the program, in any body type.
 */
import { tool, type ToolSet } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { toCodemodeApprovalDescriptor } from "../../src/ai/ui/approval-descriptor.js";
import { createCodemodeApprovalId } from "../../src/ai/ui/approval-id.js";
import { verifyCodemodeApproval } from "../../src/ai/ui/verify-codemode-approval.js";
import { openApiConnector } from "../../src/connectors/openapi/openapi-connector.js";
import type { Connector } from "../../src/connectors/types.js";
import { createMockConnector } from "../../src/test/index.js";
import { memoryClient, testRuntime } from "../runtime/runtime-fixture.js";
import { HOSTILE_SPEC, startHostileApi, TENANT_PATH, type HostileApi } from "./support/hostile-api.js";
import { svcConnector } from "./support/program-model.js";

const SECRET = "sk-live-THE-CREDENTIAL-0123456789";

function vault(): Connector {
  const token = SECRET;
  return {
    description: "A connector holding a credential in its closure.",
    methods: {
      whoami: {
        description: "Who the token belongs to.",
        execute: async () => ({ user: token.length > 0 ? "alice" : "nobody" }),
      },
      fail: {
        execute: async () => {
          throw new Error("upstream said 401");
        },
      },
    },
  };
}

async function completed(runtime: ReturnType<typeof testRuntime>, code: string): Promise<unknown> {
  const out = await runtime.execute({ code });
  expect(out, code).toMatchObject({ status: "completed" });
  return (out as { result: unknown }).result;
}

describe("a program cannot reach host objects or credentials", () => {
  it("no process, require, module, host functions or Node globals, through any constructor chain", async () => {
    const runtime = testRuntime({ connectors: { vault: vault(), svc: svcConnector() } });
    const result = (await completed(
      runtime,
      `async () => {
      const probes = {};
      const tryIt = (name, f) => { try { const v = f(); probes[name] = v === undefined ? "undefined" : typeof v; } catch (e) { probes[name] = "threw"; } };
      tryIt("process", () => process);
      tryIt("require", () => require);
      tryIt("module", () => module);
      tryIt("Buffer", () => Buffer);
      tryIt("fetch", () => fetch);
      tryIt("ctor process", () => svc.plain.constructor("return typeof process")());
      tryIt("async ctor", () => (async () => {}).constructor("return 1"));
      tryIt("global ctor", () => globalThis.constructor.constructor("return this.process")());
      tryIt("proto of binding", () => Object.getPrototypeOf(svc.plain).constructor("return typeof require")());
      return probes;
    }`,
    )) as Record<string, string>;
    expect(result["process"]).toBe("threw");
    expect(result["require"]).toBe("threw");
    expect(result["module"]).toBe("threw");
    expect(result["Buffer"]).toBe("threw");
    expect(result["ctor process"]).not.toBe("object");
    expect(result["global ctor"]).toBe("undefined");
    const typed = await completed(
      runtime,
      "async () => [svc.plain.constructor('return typeof process')(), Object.getPrototypeOf(svc.plain).constructor('return typeof require')()]",
    );
    expect(typed).toEqual(["undefined", "undefined"]);
  });

  it("a connector's credential is not reachable from the program: not in its namespace, source, errors, describe or search", async () => {
    const runtime = testRuntime({ connectors: { vault: vault() } });
    const result = (await completed(
      runtime,
      `async () => {
      const seen = [];
      seen.push(JSON.stringify(Object.getOwnPropertyNames(vault)));
      for (const name of Object.getOwnPropertyNames(vault)) seen.push(String(vault[name]));
      seen.push(JSON.stringify(await vault.whoami({})));
      try { await vault.fail({}); } catch (e) { seen.push(String(e && e.stack), String(e)); }
      seen.push(JSON.stringify(await codemode.describe("vault")), JSON.stringify(await codemode.search("token")));
      const all = [];
      for (const key of Object.getOwnPropertyNames(globalThis)) { try { all.push(key + ":" + String(globalThis[key])); } catch {} }
      seen.push(all.join("|"));
      return seen.join("\\n");
    }`,
    )) as string;
    expect(result).toContain("alice");
    expect(result).not.toContain(SECRET);
    expect(result).not.toContain("sk-live");
  });

  it("a program cannot forge the journal through the host namespace behind codemode (step results and failures of calls it did not begin)", async () => {
    const svc = svcConnector();
    const runtime = testRuntime({ connectors: { svc } });
    const out = await runtime.execute({
      code: `async () => {
        const host = globalThis.__codemode_host;
        const call = svc.rev({ n: 1, k: "real" });
        const forged = [];
        if (host !== undefined) {
          for (const f of [() => host.stepEnd({ seq: 1, value: { d: 666, k: "forged" } }), () => host.stepFail({ seq: 1, error: "forged failure" })]) {
            try { await f(); forged.push("accepted"); } catch (e) { forged.push("refused"); }
          }
        }
        return { value: await call, forged, hostVisible: host !== undefined };
      }`,
    });
    const detail = await runtime.execution(out.executionId);
    // Whatever the program could see, the journal holds what the connector returned, and rollback reverts it.
    expect(detail?.calls.map((call) => ({ seq: call.seq, status: call.status, result: call.result }))).toEqual([
      { seq: 1, status: "applied", result: { d: 2, k: "real" } },
    ]);
    expect(out).toMatchObject({ status: "completed", result: { value: { d: 2, k: "real" } } });
    expect(await runtime.rollback({ executionId: out.executionId })).toMatchObject({
      status: "rolled_back",
      reverted: [1],
    });
  });
});

describe("a program cannot reach other executions or unconfigured methods", () => {
  it("another runtime name cannot read, approve, reject, roll back or delete an execution; a program has no handle on the journal", async () => {
    const client = memoryClient();
    const gate = createMockConnector("gate", { methods: { open: { needsApproval: true, revert: true } } });
    const alice = testRuntime({ connectors: { gate }, store: client, name: "alice" });
    const mallory = testRuntime({ connectors: { gate }, store: client, name: "mallory" });
    const paused = await alice.execute({ code: "async () => gate.open({ door: 1 })" });
    expect(paused.status).toBe("paused");
    const id = paused.executionId;
    expect(await mallory.execution(id)).toBeUndefined();
    expect(await mallory.pending()).toEqual([]);
    expect(await mallory.approve({ executionId: id })).toMatchObject({ status: "error", kind: "not-found" });
    expect(await mallory.reject({ executionId: id })).toMatchObject({ status: "error", kind: "not-found" });
    expect(await mallory.rollback({ executionId: id })).toMatchObject({ status: "error", kind: "not-found" });
    expect(await mallory.deleteExecution(id)).toEqual({ deleted: false });
    expect(await mallory.clearHistory()).toEqual({ deleted: [] });
    const probe = await mallory.execute({
      code: `async () => [typeof codemode.execution, typeof codemode.approve, typeof codemode.executions, Object.keys(codemode).sort().join(","), JSON.stringify(await codemode.search(${JSON.stringify(id)}))]`,
    });
    expect(probe).toMatchObject({ status: "completed" });
    const [execution, approve, executions, keys, search] = (probe as { result: string[] }).result;
    expect([execution, approve, executions]).toEqual(["undefined", "undefined", "undefined"]);
    expect(keys).toBe("describe,run,search,step");
    expect(search).not.toContain(id);
    expect(gate.ledger.count("gate.open")).toBe(0);
    expect((await alice.pending(id)).map((action) => action.seq)).toEqual([1]);
  });

  it("unconfigured connectors and methods are not there; prototype names are not methods", async () => {
    const svc = svcConnector();
    const runtime = testRuntime({ connectors: { svc } });
    const result = (await completed(
      runtime,
      `async () => {
      const r = {};
      r.github = typeof github;
      r.missing = typeof svc.drop_tables;
      r.names = [];
      for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "__defineGetter__"]) {
        try { await svc[name]({}); r.names.push("called"); } catch (e) { r.names.push("refused"); }
      }
      try { await svc.drop_tables({}); r.call = "called"; } catch (e) { r.call = e instanceof TypeError ? "TypeError" : String(e); }
      return r;
    }`,
    )) as Record<string, unknown>;
    expect(result).toMatchObject({ github: "undefined", missing: "undefined", call: "TypeError" });
    expect(result["names"]).toEqual(Array.from({ length: 6 }, () => "refused"));
    expect(svc.ledger.entries).toEqual([]);
    const [summary] = await runtime.executions(1);
    expect((await runtime.execution(summary!.executionId))?.calls).toEqual([]);
  });
});

describe("approval ids", () => {
  it("an id for one call cannot approve another call, another execution, other arguments or an ended execution", async () => {
    const gate = createMockConnector("gate", { methods: { open: { needsApproval: true } } });
    const runtime = testRuntime({ connectors: { gate } });
    const a = await runtime.execute(
      { code: "async () => Promise.all([gate.open({ door: 1 }), gate.open({ door: 2 })])" },
      { toolCallId: "call-a" },
    );
    const b = await runtime.execute({ code: "async () => gate.open({ door: 1 })" }, { toolCallId: "call-b" });
    expect(a.status).toBe("paused");
    expect(b.status).toBe("paused");
    const [a1, a2] = (
      a as { pending: Array<{ executionId: string; seq: number; connector: string; method: string; args: unknown }> }
    ).pending;
    const idA1 = await createCodemodeApprovalId(a1!);
    const idA2 = await createCodemodeApprovalId(a2!);
    expect(await verifyCodemodeApproval({ runtime, approvalId: idA1, toolCallId: "call-a" })).toMatchObject({
      valid: true,
      action: { seq: 1 },
    });
    const hashOf = (id: string) => id.slice(id.lastIndexOf("_") + 1);
    // Seq swapped: the hash of call #1 does not match call #2.
    expect(
      await verifyCodemodeApproval({
        runtime,
        approvalId: `cm_${a.executionId}_2_${hashOf(idA1)}`,
        toolCallId: "call-a",
      }),
    ).toMatchObject({ valid: false, kind: "mismatch" });
    // Execution swapped: B's call #1 has the same connector, method and arguments, but another execution.
    expect(
      await verifyCodemodeApproval({
        runtime,
        approvalId: `cm_${b.executionId}_1_${hashOf(idA1)}`,
        toolCallId: "call-b",
      }),
    ).toMatchObject({ valid: false, kind: "mismatch" });
    // Other arguments: an id built for door 3 at A's #1.
    const forged = await createCodemodeApprovalId({ ...a1!, args: { door: 3 } });
    expect(await verifyCodemodeApproval({ runtime, approvalId: forged, toolCallId: "call-a" })).toMatchObject({
      valid: false,
      kind: "mismatch",
    });
    // Malformed and SQL-looking ids change nothing.
    for (const approvalId of [
      "cm_x'; DROP TABLE codemode_calls; --_1_0123456789abcdef",
      "cm__1_0123456789abcdef",
      "cm_a_01_0123456789abcdef",
      "not-an-id",
    ]) {
      expect((await verifyCodemodeApproval({ runtime, approvalId, toolCallId: "call-a" })).valid, approvalId).toBe(
        false,
      );
    }
    expect(gate.ledger.entries).toEqual([]);
    // After A ends, its ids are stale.
    expect(await runtime.reject({ executionId: a.executionId })).toMatchObject({ status: "rejected" });
    expect(await verifyCodemodeApproval({ runtime, approvalId: idA2, toolCallId: "call-a" })).toMatchObject({
      valid: false,
      kind: "stale",
    });
    expect((await runtime.pending()).map((action) => action.executionId)).toEqual([b.executionId]);
  });
});

describe("names from users", () => {
  const NASTY = [
    "x'); DROP TABLE codemode_calls; --",
    'a" OR 1=1 --',
    "__proto__",
    "constructor",
    "name with spaces",
    "émoji-🦄",
    "x`${globalThis}`",
  ];

  it("snippet names that are not identifiers are refused; SQL in them never runs; prototype names are plain names", async () => {
    const client = memoryClient();
    const runtime = testRuntime({ connectors: { svc: svcConnector() }, store: client });
    const done = await runtime.execute({ code: "async () => 1" });
    for (const name of NASTY.filter((candidate) => !["__proto__", "constructor"].includes(candidate)))
      expect(await runtime.saveSnippet(name, { executionId: done.executionId }), name).toMatchObject({
        status: "error",
        kind: "validation",
      });
    expect(await runtime.deleteSnippet(NASTY[0]!)).toEqual({ deleted: false });
    const run = await runtime.execute({ code: `async () => codemode.run(${JSON.stringify(NASTY[0])}, {})` });
    expect(run).toMatchObject({
      status: "completed",
      result: { error: expect.stringContaining("No snippet") as unknown },
    });
    const tables = (await client.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")).rows.map(
      (row) => row["name"],
    );
    expect(tables).toEqual(expect.arrayContaining(["codemode_calls", "codemode_executions", "codemode_snippets"]));
    expect((await runtime.execution(done.executionId))?.status).toBe("completed");
    const source = await runtime.execute({ code: "async () => (input === undefined ? 0 : input.n) + 40" });
    for (const name of ["__proto__", "constructor"])
      expect(await runtime.saveSnippet(name, { executionId: source.executionId }), name).toMatchObject({
        status: "saved",
      });
    const used = await runtime.execute({
      code: "async () => [await codemode.run('__proto__', { n: 1 }), await codemode.run('constructor', { n: 2 }), (await codemode.search('constructor')).results.length > 0]",
    });
    expect(used).toMatchObject({ status: "completed", result: [41, 42, true] });
  });

  it("runtime names are data: a name full of SQL is a separate history and drops nothing", async () => {
    const client = memoryClient();
    const honest = testRuntime({ connectors: { svc: svcConnector() }, store: client, name: "honest" });
    const kept = await honest.execute({ code: "async () => svc.plain({ n: 1, k: 'a' })" });
    for (const name of NASTY) {
      const runtime = testRuntime({ connectors: { svc: svcConnector() }, store: client, name });
      const out = await runtime.execute({ code: "async () => svc.plain({ n: 2, k: 'b' })" });
      expect(out, name).toMatchObject({ status: "completed", result: { d: 4 } });
      expect(
        (await runtime.executions()).map((entry) => entry.runtime),
        name,
      ).toEqual([name]);
      await runtime.deleteAllData();
    }
    expect((await honest.execution(kept.executionId))?.calls).toHaveLength(1);
    expect((await honest.executions()).map((entry) => entry.executionId)).toEqual([kept.executionId]);
  });

  it("method names from a ToolSet (prototype names, quotes, SQL) are journaled as data and reach only their own tool", async () => {
    const hits: string[] = [];
    const tools: ToolSet = {};
    for (const name of ["constructor", "toString", "hasOwnProperty", "x'); DROP TABLE codemode_calls; --", 'a"b']) {
      tools[name] = tool({
        description: `tool ${name}`,
        inputSchema: z.object({}),
        execute: async () => {
          hits.push(name);
          return name;
        },
      });
    }
    const client = memoryClient();
    const runtime = testRuntime({ connectors: { odd: tools }, store: client });
    const names = Object.keys(tools);
    const out = await runtime.execute({
      code: `async () => { const r = []; for (const name of ${JSON.stringify(names)}) r.push(await odd[name]({})); return [r, typeof Object.prototype.toString, ({}).constructor === Object]; }`,
    });
    expect(out).toMatchObject({ status: "completed", result: [names, "function", true] });
    expect(hits).toEqual(names);
    const detail = await runtime.execution(out.executionId);
    expect(detail?.calls.map((call) => call.method)).toEqual(names);
    const tables = (await client.execute("SELECT name FROM sqlite_master WHERE type = 'table'")).rows.map(
      (row) => row["name"],
    );
    expect(tables).toContain("codemode_calls");
  });
});

describe("a hostile API or program against the OpenAPI connector (issue 14)", () => {
  const BEARER = "host-secret-bearer-0123456789";
  const API_KEY = "host-secret-api-key-9876543210";
  let api: HostileApi;
  let hostile: Connector;

  beforeAll(async () => {
    api = await startHostileApi();
    hostile = await openApiConnector({
      spec: HOSTILE_SPEC,
      baseUrl: api.baseUrl,
      headers: { authorization: `Bearer ${BEARER}`, "x-api-key": API_KEY },
      needsApproval: (operation) => operation.method !== "get",
    });
  });
  afterAll(() => api.close());

  it("path parameters `.`, `..`, `%2e`, `%2E%2E` and empty never leave the operation's path, approved or not", async () => {
    const runtime = testRuntime({ connectors: { tracker: hostile } });
    api.requests.length = 0;
    const values = ["..", ".", "%2e", "%2E%2E", ".%2e", "", "../..", "..\\.."];
    const out = (await completed(
      runtime,
      `async () => {
      const seen = [];
      for (const value of ${JSON.stringify(values)}) {
        try { await tracker.list_issues({ owner: value, repo: value }); seen.push("sent"); } catch (e) { seen.push(String(e.message)); }
      }
      try { await tracker.create_issue({ owner: "..", repo: "..", body: { title: "x" } }); seen.push("created"); }
      catch (e) { seen.push(String(e.message)); }
      return seen;
    }`,
    )) as string[];
    // Dot segments and empty segments are refused before anything is asked or sent, and say why.
    for (const index of [0, 1, 5, 8]) expect(out[index], String(index)).toMatch(/outside this operation's path/);
    // Encoded, the others are ordinary segments (`%252e`, `..%2F..`): sent, under the operation's path.
    expect([out[2], out[3], out[4], out[6], out[7]]).toEqual(["sent", "sent", "sent", "sent", "sent"]);
    // Every request that was sent stayed under the operation's path (encoded values are data).
    expect(api.requests.length).toBeGreaterThan(0);
    for (const request of api.requests)
      expect(request).toMatch(new RegExp(`^GET ${TENANT_PATH}/repos/[^/]+/[^/]+/issues$`));
    expect(api.requests).toContain(`GET ${TENANT_PATH}/repos/%252e/%252e/issues`);
    expect(await runtime.pending()).toEqual([]);
  });

  it("the approver sees the exact method and URL that will be requested, and that request is the one sent", async () => {
    const runtime = testRuntime({ connectors: { tracker: hostile } });
    api.requests.length = 0;
    const paused = await runtime.execute({
      code: "async () => tracker.create_issue({ owner: 'acme', repo: 'web', body: { title: 'Bug' } })",
    });
    const url = `${api.baseUrl}/repos/acme/web/issues`;
    expect(paused).toMatchObject({
      status: "paused",
      pending: [{ method: "create_issue", request: { method: "POST", url } }],
    });
    const [listed] = await runtime.pending(paused.executionId);
    expect(listed?.request).toEqual({ method: "POST", url });
    expect(toCodemodeApprovalDescriptor(listed!).request).toEqual({ method: "POST", url });
    expect(api.requests).toEqual([]);
    expect(await runtime.approve({ executionId: paused.executionId })).toMatchObject({
      status: "completed",
      result: { number: 1 },
    });
    expect(api.requests).toEqual([`POST ${new URL(url).pathname}`]);
  });

  it("credentials go to the configured origin only: a cross-origin redirect gets none, a same-origin one keeps them", async () => {
    const runtime = testRuntime({ connectors: { tracker: hostile } });
    api.elsewhere.length = 0;
    const out = await completed(runtime, "async () => [await tracker.away({}), await tracker.here({})]");
    expect(out).toEqual([{ landed: "elsewhere" }, { key: true }]);
    expect(api.elsewhere).toHaveLength(1);
    const leaked = JSON.stringify(api.elsewhere);
    expect(leaked).not.toContain(API_KEY);
    expect(leaked).not.toContain(BEARER);
    expect(api.elsewhere[0]).not.toHaveProperty("x-api-key");
  });

  it("an echoed credential is redacted from binary and UTF-16 text bodies before the program sees them", async () => {
    const runtime = testRuntime({ connectors: { tracker: hostile } });
    const out = await runtime.execute({
      code: `async () => {
        const bytes = await tracker.echo({});
        const text = await tracker.echo16({});
        return { binary: Array.from(bytes, (b) => String.fromCharCode(b)).join(""), utf16: text.replace(/\\u0000/g, ""), length: bytes.length };
      }`,
    });
    expect(out.status).toBe("completed");
    const seen = JSON.stringify(out);
    expect(seen).toContain("[redacted]");
    for (const secret of [BEARER, API_KEY, "host-secret"]) expect(seen).not.toContain(secret);
    const journal = JSON.stringify(await runtime.execution(out.executionId));
    for (const secret of [BEARER, API_KEY]) expect(journal).not.toContain(secret);
  });
});
