import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCodemodeInspector } from "../../src/inspector/create-codemode-inspector.js";
import { INSPECTOR_SCRIPT } from "../../src/inspector/inspector-page-script.js";
import { INSPECTOR_STYLE } from "../../src/inspector/inspector-page-style.js";
import { createJournalFixture, expectedPending, type JournalFixture } from "./journal-fixture.js";

let fixture: JournalFixture;
let inspector: (request: Request) => Promise<Response>;
const ORIGIN = "https://app.example";

beforeAll(async () => {
  fixture = await createJournalFixture();
  inspector = createCodemodeInspector({
    runtime: fixture.runtime,
    authorize: (request) => (request.headers.get("authorization") === "Bearer admin" ? { unscoped: true } : false),
    _internal: { now: () => fixture.clock.now() },
  });
});
afterAll(() => fixture.cleanup());

function get(path: string, headers: Record<string, string> = { authorization: "Bearer admin" }): Promise<Response> {
  return inspector(new Request(`${ORIGIN}${path}`, { headers }));
}

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return inspector(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { authorization: "Bearer admin", "content-type": "application/json", origin: ORIGIN, ...headers },
      body: JSON.stringify(body),
    }),
  );
}

const hash = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("the page", () => {
  it("is one self-contained HTML page under a strict CSP allowing exactly its inline script and style", async () => {
    const response = await get("/codemode");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src ${hash(INSPECTOR_SCRIPT)}`);
    expect(csp).toContain(`style-src ${hash(INSPECTOR_STYLE)}`);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await response.text();
    expect(html).toContain(`<script>${INSPECTOR_SCRIPT}</script>`);
    expect(html).not.toMatch(/<script[^>]+src=|<link|https?:\/\//);
    expect(INSPECTOR_SCRIPT).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
  });
});

describe("authorize", () => {
  it("refuses the page and the API when authorize says no, and acts on nothing", async () => {
    for (const path of ["/codemode", "/codemode/api/executions", `/codemode/api/executions/${fixture.ids.paused}`]) {
      const response = await get(path, { authorization: "Bearer guest" });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: "Not authorized." });
    }
    const approve = await post(`/codemode/api/executions/${fixture.ids.paused}/approve`, {}, { authorization: "" });
    expect(approve.status).toBe(401);
    expect((await fixture.runtime.execution(fixture.ids.paused))?.status).toBe("paused");
  });

  it("without authorize, serves only loopback requests in development", async () => {
    const open = (env: string) =>
      createCodemodeInspector({ runtime: fixture.runtime, _internal: { env: { NODE_ENV: env } } });
    const local = new Request("http://localhost:3000/codemode/api/pending", { headers: { host: "localhost:3000" } });
    expect((await open("development")(local)).status).toBe(200);
    expect((await open("production")(local.clone())).status).toBe(403);
    expect(await (await open("production")(local.clone())).json()).toEqual({
      error:
        "Not authorized: this inspector has no authorize option, so it only answers loopback requests while NODE_ENV is development.",
    });
    const remote = new Request("http://inspector.example/codemode/api/pending", {
      headers: { host: "inspector.example" },
    });
    expect((await open("development")(remote)).status).toBe(403);
    const rebound = new Request("http://127.0.0.1:3000/codemode/api/pending", {
      headers: { host: "evil.example:3000" },
    });
    expect((await open("development")(rebound)).status).toBe(403);
  });

  it("refuses unknown options and a missing runtime at construction, naming them", () => {
    expect(() => createCodemodeInspector({ runtime: fixture.runtime, authorise: () => true } as never)).toThrow(
      'createCodemodeInspector.authorise is not a known option (did you mean "authorize"?)',
    );
    expect(() => createCodemodeInspector({} as never)).toThrow(
      "runtime must be a runtime from createCodemodeRuntime()",
    );
    expect(() => createCodemodeInspector({ runtime: fixture.runtime, authorize: true } as never)).toThrow(
      "authorize must be a function",
    );
  });
});

describe("the JSON API", () => {
  it("lists executions with their counts, filters by status, refuses a bad filter", async () => {
    const list = (await (await get("/codemode/api/executions")).json()) as {
      runtime: string;
      executions: Array<{ executionId: string; status: string; calls: number }>;
    };
    expect(list.runtime).toBe("default");
    expect(list.executions.map((row) => row.status)).toEqual([
      "running",
      "paused",
      "rolled_back",
      "rejected",
      "error",
      "completed",
      "completed",
    ]);
    const paused = (await (await get("/codemode/api/executions?status=paused")).json()) as typeof list;
    expect(paused.executions).toMatchObject([
      { executionId: fixture.ids.paused, status: "paused", calls: 2, pending: 1 },
    ]);
    const bad = await get("/codemode/api/executions?status=finished");
    expect(bad.status).toBe(400);
    expect((await get("/codemode/api/executions?limit=0")).status).toBe(400);
  });

  it("returns one execution with its timeline, and 404 for an unknown id", async () => {
    const body = (await (await get(`/codemode/api/executions/${fixture.ids.approved}`)).json()) as {
      execution: { code: string; logs: string[] };
      timeline: { passes: unknown[]; waits: Array<{ seq: number; from: number; to: number }> };
    };
    expect(body.execution.logs).toEqual(["bought 7"]);
    expect(body.timeline.passes).toHaveLength(2);
    expect(body.timeline.waits).toEqual([
      { seq: 2, pass: 1, from: Date.UTC(2026, 0, 1, 9, 1, 0, 240), to: Date.UTC(2026, 0, 1, 9, 4, 5, 240) },
    ]);
    const missing = await get("/codemode/api/executions/nope");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'No execution nope in runtime "default".' });
  });

  it("answers under any mount path, including one with /api in it", async () => {
    const response = await get("/api/admin/codemode/api/pending");
    expect(await response.json()).toEqual(expectedPending(fixture));
    expect((await get("/api/admin/codemode")).headers.get("content-type")).toBe("text/html; charset=utf-8");
  });

  it("refuses cross-site actions, non-JSON bodies, wrong methods, and actions when read-only", async () => {
    const path = `/codemode/api/executions/${fixture.ids.paused}/approve`;
    expect((await post(path, {}, { origin: "https://evil.example" })).status).toBe(403);
    const form = await inspector(
      new Request(`${ORIGIN}${path}`, {
        method: "POST",
        headers: { authorization: "Bearer admin", "content-type": "application/x-www-form-urlencoded" },
        body: "seq=2",
      }),
    );
    expect(form.status).toBe(400);
    expect((await get(path)).status).toBe(405);
    expect((await post(path, { seq: "2" })).status).toBe(400);
    const readOnly = createCodemodeInspector({
      runtime: fixture.runtime,
      readOnly: true,
      authorize: () => ({ unscoped: true }),
    });
    const refused = await readOnly(
      new Request(`${ORIGIN}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }),
    );
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toContain("read-only");
    expect((await fixture.runtime.execution(fixture.ids.paused))?.status).toBe("paused");
  });

  it("approves through the runtime: the execution resumes and completes; a second approval is refused as data", async () => {
    const approvedAt = fixture.clock.now();
    const response = await post(`/codemode/api/executions/${fixture.ids.paused}/approve`, { seq: 2 });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      output: {
        status: "completed",
        executionId: fixture.ids.paused,
        result: { order: 7, sku: "tea", quantity: 2 },
        logs: ["bought 7"],
      },
    });
    const again = (await (await post(`/codemode/api/executions/${fixture.ids.paused}/approve`, {})).json()) as {
      output: { status: string; kind: string };
    };
    expect(again.output).toMatchObject({ status: "error", kind: "stale" });
    const detail = (await (await get(`/codemode/api/executions/${fixture.ids.paused}`)).json()) as {
      timeline: { decisions: Array<{ decision: string; seq: number }> };
    };
    expect(detail.timeline.decisions).toEqual([{ decision: "approved", seq: 2, at: approvedAt }]);
  });

  it("rolls back and rejects through the runtime", async () => {
    const rollback = (await (await post(`/codemode/api/executions/${fixture.ids.paused}/rollback`, {})).json()) as {
      output: unknown;
    };
    expect(rollback.output).toEqual({
      status: "rolled_back",
      executionId: fixture.ids.paused,
      reverted: [2],
      skipped: [1],
      errors: [],
    });
    const reject = (await (
      await post(`/codemode/api/executions/${fixture.ids.completed}/reject`, { reason: "no" })
    ).json()) as { output: unknown };
    expect(reject.output).toMatchObject({ status: "error", kind: "stale" });
  });
});

describe("approving with changed arguments", () => {
  it("runs an editable call with the edited arguments, refuses a bad edit with nothing run, and shows both sets", async () => {
    const paused = await fixture.runtime.execute({ code: "async () => shop.tip({ amount: 500 })" });
    expect(paused).toMatchObject({ status: "paused", pending: [{ seq: 1, editable: true }] });
    const path = `/codemode/api/executions/${paused.executionId}/approve`;
    const bad = (await (await post(path, { seq: 1, args: { amount: "lots" } })).json()) as { output: unknown };
    expect(bad.output).toMatchObject({ status: "error", kind: "validation" });
    expect((await fixture.runtime.pending(paused.executionId)).map((p) => p.seq)).toEqual([1]);
    const approved = (await (await post(path, { seq: 1, args: { amount: 50 } })).json()) as { output: unknown };
    expect(approved.output).toMatchObject({ status: "completed", result: { tipped: 50 } });
    const shown = (await (await get(`/codemode/api/executions/${paused.executionId}`)).json()) as {
      execution: { calls: unknown[] };
      timeline: { calls: unknown[] };
    };
    expect(shown.execution.calls).toMatchObject([{ seq: 1, args: { amount: 500 }, approvedArgs: { amount: 50 } }]);
    expect(shown.timeline.calls).toMatchObject([{ seq: 1, args: { amount: 500 }, approvedArgs: { amount: 50 } }]);
  });

  it("passes args of a decision to decide", async () => {
    const code =
      "async () => (await Promise.all([shop.tip({ amount: 1 }), shop.tip({ amount: 2 })])).map((t) => t.tipped)";
    const paused = await fixture.runtime.execute({ code });
    const decided = (await (
      await post(`/codemode/api/executions/${paused.executionId}/decide`, {
        decisions: [
          { seq: 1, approved: true, args: { amount: 10 } },
          { seq: 2, approved: true },
        ],
      })
    ).json()) as { output: unknown };
    expect(decided.output).toMatchObject({ status: "completed", result: [10, 2] });
  });

  it("the page script offers a JSON editor for an editable pending call and sends args", () => {
    expect(INSPECTOR_SCRIPT).toMatch(/"data-testid": ?"args-edit"/);
    expect(INSPECTOR_SCRIPT).toMatch(/args: ?edit\.args/);
    // The script is valid JavaScript (a newline escaped wrongly inside it would break the whole page).
    expect(() => new Function(INSPECTOR_SCRIPT)).not.toThrow();
  });
});

describe("deciding several calls that wait together (decide), as the chat does", () => {
  it("approves one and rejects the other inside the program, which goes on", async () => {
    const code =
      "async () => (await Promise.allSettled([shop.buy({ sku: 'tea', quantity: 1 }), shop.buy({ sku: 'cake', quantity: 1 })])).map((r) => r.status)";
    const paused = await fixture.runtime.execute({ code });
    expect(paused).toMatchObject({ status: "paused", pending: [{ seq: 1 }, { seq: 2 }] });
    const path = `/codemode/api/executions/${paused.executionId}/decide`;
    for (const decisions of [
      undefined,
      [],
      [{ seq: 1 }],
      [{ seq: "1", approved: true }],
      [{ seq: 1, approved: true, reason: 7 }],
    ])
      expect((await post(path, { decisions })).status).toBe(400);
    const readOnly = createCodemodeInspector({
      runtime: fixture.runtime,
      readOnly: true,
      authorize: () => ({ unscoped: true }),
    });
    const refused = await readOnly(
      new Request(`${ORIGIN}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ decisions: [{ seq: 1, approved: true }] }),
      }),
    );
    expect(refused.status).toBe(403);
    const decided = await post(path, {
      decisions: [
        { seq: 1, approved: true },
        { seq: 2, approved: false, reason: "not the cake" },
      ],
    });
    expect(await decided.json()).toEqual({
      output: { status: "completed", executionId: paused.executionId, result: ["fulfilled", "rejected"] },
    });
    const shown = (await (await get(`/codemode/api/executions/${paused.executionId}`)).json()) as {
      execution: { calls: Array<{ seq: number; status: string; error?: string; revertible: boolean }> };
    };
    expect(shown.execution.calls).toMatchObject([
      { seq: 1, status: "applied", revertible: true },
      { seq: 2, status: "error", error: expect.stringContaining("Rejected by a human: not the cake") },
    ]);
  });
});

describe("who decided, from the inspector's decidedBy option", () => {
  it("journals the signed-in user on approve, reject and decide (never the body's), and shows it in the API", async () => {
    const inspectorFor = createCodemodeInspector({
      runtime: fixture.runtime,
      authorize: (request) => (request.headers.get("authorization") === "Bearer admin" ? { unscoped: true } : false),
      decidedBy: (request) => request.headers.get("x-user") ?? undefined,
      _internal: { now: () => fixture.clock.now() },
    });
    const act = (path: string, body: unknown, user?: string) =>
      inspectorFor(
        new Request(`${ORIGIN}/codemode/api/executions/${path}`, {
          method: "POST",
          headers: {
            authorization: "Bearer admin",
            "content-type": "application/json",
            origin: ORIGIN,
            ...(user === undefined ? {} : { "x-user": user }),
          },
          body: JSON.stringify(body),
        }),
      );
    const shown = async (executionId: string) =>
      (await (
        await inspectorFor(
          new Request(`${ORIGIN}/codemode/api/executions/${executionId}`, {
            headers: { authorization: "Bearer admin" },
          }),
        )
      ).json()) as {
        execution: { calls: Array<{ seq: number; decidedBy?: string }> };
        timeline: { decisions: Array<{ decision: string; decidedBy?: string }> };
      };
    const buy = "async () => shop.buy({ sku: 'tea', quantity: 1 })";

    const approved = await fixture.runtime.execute({ code: buy });
    await act(`${approved.executionId}/approve`, { decidedBy: "mallory" }, "ann");
    const approvedView = await shown(approved.executionId);
    expect(approvedView.execution.calls).toMatchObject([{ seq: 1, decidedBy: "ann" }]);
    expect(approvedView.timeline.decisions).toMatchObject([{ decision: "approved", decidedBy: "ann" }]);

    const rejected = await fixture.runtime.execute({ code: buy });
    await act(`${rejected.executionId}/reject`, { reason: "no" }, "ben");
    expect((await shown(rejected.executionId)).timeline.decisions).toMatchObject([
      { decision: "rejected", decidedBy: "ben" },
    ]);

    const two = await fixture.runtime.execute({
      code: "async () => Promise.allSettled([shop.buy({ sku: 'a', quantity: 1 }), shop.buy({ sku: 'b', quantity: 1 })])",
    });
    await act(
      `${two.executionId}/decide`,
      {
        decisions: [
          { seq: 1, approved: true },
          { seq: 2, approved: false },
        ],
      },
      "cy",
    );
    expect((await shown(two.executionId)).execution.calls.map((call) => call.decidedBy)).toEqual(["cy", "cy"]);

    // Nobody signed in: nobody recorded.
    const anonymous = await fixture.runtime.execute({ code: buy });
    await act(`${anonymous.executionId}/approve`, {});
    expect((await shown(anonymous.executionId)).execution.calls[0]).not.toHaveProperty("decidedBy");

    // A signed-in id over 200 characters refuses the action, nothing changed.
    const long = await fixture.runtime.execute({ code: buy });
    const refused = (await (await act(`${long.executionId}/approve`, {}, "x".repeat(201))).json()) as {
      output: unknown;
    };
    expect(refused.output).toMatchObject({ status: "error", kind: "validation" });
    expect((await fixture.runtime.execution(long.executionId))?.status).toBe("paused");
  });

  it("refuses a decidedBy option that is not a function", () => {
    expect(() => createCodemodeInspector({ runtime: fixture.runtime, decidedBy: "ann" as never })).toThrow(
      /decidedBy must be a function/,
    );
  });
});

describe("a grant of one owner (authorize answers { scope })", () => {
  const buy = "async () => shop.buy({ sku: 'tea', quantity: 1 })";
  /** Signed in by x-user: that user's executions; the admin token: every execution. */
  const scoped = () =>
    createCodemodeInspector({
      runtime: fixture.runtime,
      authorize: (request) => {
        if (request.headers.get("authorization") === "Bearer admin") return { unscoped: true };
        const user = request.headers.get("x-user");
        return user === null ? false : { scope: user };
      },
      decidedBy: (request) => request.headers.get("x-user") ?? "admin",
      _internal: { now: () => fixture.clock.now() },
    });
  const as = (handler: (request: Request) => Promise<Response>, user: string) => ({
    get: (path: string) => handler(new Request(`${ORIGIN}/codemode/api${path}`, { headers: { "x-user": user } })),
    post: (path: string, body: unknown) =>
      handler(
        new Request(`${ORIGIN}/codemode/api${path}`, {
          method: "POST",
          headers: { "x-user": user, "content-type": "application/json", origin: ORIGIN },
          body: JSON.stringify(body),
        }),
      ),
  });

  it("lists, shows and decides only that owner's executions: another's are not found and stay paused", async () => {
    const inspectorOf = scoped();
    const alices = await fixture.runtime.execute({ code: buy, scope: "alice" });
    const bobs = await fixture.runtime.execute({ code: buy, scope: "bob" });
    const bob = as(inspectorOf, "bob");

    const list = (await (await bob.get("/executions")).json()) as { executions: Array<{ executionId: string }> };
    expect(list.executions.map((row) => row.executionId)).toEqual([bobs.executionId]);
    const filtered = (await (await bob.get("/executions?status=paused")).json()) as typeof list;
    expect(filtered.executions.map((row) => row.executionId)).toEqual([bobs.executionId]);
    const pending = (await (await bob.get("/pending")).json()) as { pending: Array<{ executionId: string }> };
    expect(pending.pending.map((call) => call.executionId)).toEqual([bobs.executionId]);
    for (const id of [alices.executionId, fixture.ids.completed]) {
      const shown = await bob.get(`/executions/${id}`);
      expect(shown.status).toBe(404);
      expect(JSON.stringify(await shown.json())).not.toContain("tea");
    }

    for (const [action, body] of [
      ["approve", { seq: 1 }],
      ["decide", { decisions: [{ seq: 1, approved: true }] }],
      ["reject", { reason: "mine now" }],
      ["rollback", {}],
    ] as const) {
      const answer = (await (await bob.post(`/executions/${alices.executionId}/${action}`, body)).json()) as {
        output: unknown;
      };
      expect(answer.output).toMatchObject({ status: "error", kind: "not-found" });
    }
    const untouched = await fixture.runtime.execution(alices.executionId);
    expect(untouched).toMatchObject({ status: "paused", calls: [{ seq: 1, status: "pending" }] });
    expect(untouched?.calls[0]).not.toHaveProperty("decidedBy");

    // Alice decides her own; the admin sees both owners' executions.
    const approved = (await (
      await as(inspectorOf, "alice").post(`/executions/${alices.executionId}/approve`, {})
    ).json()) as {
      output: unknown;
    };
    expect(approved.output).toMatchObject({ status: "completed" });
    expect((await fixture.runtime.execution(alices.executionId))?.calls[0]?.decidedBy).toBe("alice");
    const all = (await (
      await inspectorOf(
        new Request(`${ORIGIN}/codemode/api/executions`, { headers: { authorization: "Bearer admin" } }),
      )
    ).json()) as typeof list;
    expect(all.executions.map((row) => row.executionId)).toEqual(
      expect.arrayContaining([alices.executionId, bobs.executionId]),
    );
    await fixture.runtime.reject({ executionId: bobs.executionId, scope: "bob" });
  });

  it("refuses true (a grant must say whose executions: { scope } or { unscoped: true }) and confused grants", async () => {
    for (const answer of [true, { scope: "" }, { scope: "ann", unscoped: true }, { unscoped: "yes" }, "ann"]) {
      const handler = createCodemodeInspector({ runtime: fixture.runtime, authorize: () => answer as never });
      const response = await handler(new Request(`${ORIGIN}/codemode/api/executions`));
      expect(response.status).toBe(answer === true ? 500 : 401);
      const body = (await response.json()) as { error: string };
      expect(Object.keys(body)).toEqual(["error"]);
      if (answer === true) expect(body.error).toMatch(/\{ scope: userId \}.*\{ unscoped: true \}/);
    }
  });

  it("refuses an action from the same host over another scheme or port (the origin is scheme, host and port)", async () => {
    const path = `/codemode/api/executions/${fixture.ids.completed}/reject`;
    for (const origin of ["http://app.example", "https://app.example:8443", "null", "https://app.example.evil"])
      expect((await post(path, {}, { origin })).status).toBe(403);
    expect((await post(path, {}, { origin: "https://app.example:443" })).status).toBe(200);
  });
});
