/**
 * Approval links on the inspector: a signed link opens a page showing the whole pending call and decides it
 * once. A link reused, expired, altered, moved to another call, opened by another owner or posted from another
 * site changes nothing (the journal is read back to show it), and the decision is journaled with `decidedBy`.
 */
import { jsonSchema, tool } from "ai";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createCodemodeRuntime, type CodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { connector } from "../../src/connectors/connector.js";
import { createCodemodeInspector } from "../../src/inspector/create-codemode-inspector.js";
import { createApprovalLinkToken } from "../../src/runtime/approval-link-token.js";
import type { PendingAction } from "../../src/runtime/types.js";
import { tempFolder } from "../support/temp-folder.js";

const SECRET = "s".repeat(40);
const ORIGIN = "https://app.example";
const NOW = 1_900_000_000_000;

let runtime: CodemodeRuntime | undefined;
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
});

/**
 * A runtime whose `shop.buy` needs approval (and may be edited) and counts what it bought. The inspector's page and
 * API are for admins only (`admin=1` in the cookie): links are not gated by them.
 */
function setUp(options: { scope?: boolean; decidedBy?: boolean; now?: () => number } = {}) {
  const bought: string[] = [];
  const shop = connector(
    {
      buy: tool({
        inputSchema: jsonSchema<{ item: string; quantity?: number }>({
          type: "object",
          properties: { item: { type: "string" }, quantity: { type: "number" } },
          required: ["item"],
        }),
        needsApproval: true,
        execute: async ({ item, quantity = 1 }) => {
          bought.push(`${item} x${quantity}`);
          return `bought ${quantity} ${item}`;
        },
      }),
    },
    { methods: { buy: { editable: true } } },
  );
  runtime = createCodemodeRuntime({
    connectors: { shop },
    store: `file:${join(tempFolder("codemode-link-"), "codemode.db")}`,
  });
  const inspector = createCodemodeInspector({
    runtime,
    authorize: (request) => (request.headers.get("cookie")?.includes("admin=1") === true ? { unscoped: true } : false),
    ...(options.decidedBy === false ? {} : { decidedBy: (request) => userOf(request) }),
    approvalLinks: {
      secret: SECRET,
      ...(options.scope === false ? {} : { scope: (request: Request) => userOf(request) }),
    },
    _internal: { now: options.now ?? (() => NOW) },
  });
  return { runtime, inspector, bought };
}

function userOf(request: Request): string | undefined {
  return /user=([^;]+)/.exec(request.headers.get("cookie") ?? "")?.[1];
}

/** Pauses `shop.buy` of `item` in an execution of `owner` (`null`: without an owner). */
async function pause(target: CodemodeRuntime, item: string, owner: string | null = "ada"): Promise<PendingAction[]> {
  const output = await target.execute({
    code: `async () => shop.buy({ item: ${JSON.stringify(item)} })`,
    ...(owner === null ? {} : { scope: owner }),
  });
  if (output.status !== "paused") throw new Error(`expected a pause, got ${output.status}`);
  return output.pending;
}

/** A link to `pending`, minted for `owner` (`null`: an execution without an owner). */
async function linkOf(
  pending: PendingAction[],
  owner: string | null = "ada",
  expiresAt = NOW + 60_000,
): Promise<string> {
  return `/codemode/link/${await createApprovalLinkToken({ secret: SECRET, pending, owner: owner ?? undefined, expiresAt })}`;
}

function open(inspector: (request: Request) => Promise<Response>, path: string, user = "ada"): Promise<Response> {
  return inspector(new Request(`${ORIGIN}${path}`, { headers: { cookie: `user=${user}` } }));
}

/** A request of the inspector's admin (the only one `authorize` lets into the page and API). */
function asAdmin(inspector: (request: Request) => Promise<Response>, path: string): Promise<Response> {
  return inspector(new Request(`${ORIGIN}${path}`, { headers: { cookie: "user=root; admin=1" } }));
}

function decide(
  inspector: (request: Request) => Promise<Response>,
  path: string,
  form: Record<string, string>,
  { user = "ada", origin = ORIGIN }: { user?: string; origin?: string } = {},
): Promise<Response> {
  return inspector(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { cookie: `user=${user}`, origin, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    }),
  );
}

describe("an approval link", () => {
  it("shows every argument of the call and decides it once, journaled with decidedBy", async () => {
    const { runtime: app, inspector, bought } = setUp();
    const pending = await pause(app, "tea <b>green</b>");
    const link = await linkOf(pending);
    const page = await open(inspector, link);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("form-action 'self'");
    const html = await page.text();
    expect(html).toContain("shop.buy");
    expect(html).toContain("tea &#60;b&#62;green&#60;/b&#62;");
    expect(html).not.toContain("<b>green");
    expect(html).toContain('value="edit"');

    const decided = await decide(inspector, link, { [`choice-${pending[0]!.seq}`]: "approve" });
    expect(decided.status).toBe(200);
    expect(await decided.text()).toMatch(/completed/);
    expect(bought).toEqual(["tea <b>green</b> x1"]);
    const detail = await app.execution(pending[0]!.executionId, { scope: "ada" });
    expect(detail?.status).toBe("completed");
    expect(detail?.calls.map((call) => call.decidedBy)).toEqual(["ada"]);

    // The same link again: its call is no longer pending, so nothing changes, on GET or POST.
    const again = await decide(inspector, link, { [`choice-${pending[0]!.seq}`]: "approve" });
    expect(again.status).toBe(409);
    expect(await again.text()).toMatch(/used or its call was decided already by ada/);
    expect((await open(inspector, link)).status).toBe(409);
    expect(bought).toHaveLength(1);
  });

  it("edits the arguments of an editable call, and rejects with a reason", async () => {
    const { runtime: app, inspector, bought } = setUp({ decidedBy: false });
    const edited = await pause(app, "tea");
    const seq = `${edited[0]!.seq}`;
    const answer = await decide(inspector, await linkOf(edited), {
      [`choice-${seq}`]: "edit",
      [`args-${seq}`]: '{"item":"tea","quantity":2}',
    });
    expect(answer.status).toBe(200);
    expect(bought).toEqual(["tea x2"]);
    const detail = await app.execution(edited[0]!.executionId, { scope: "ada" });
    expect(detail?.calls[0]).toMatchObject({ approvedArgs: { item: "tea", quantity: 2 }, decidedBy: "approval link" });

    const rejected = await pause(app, "coffee");
    await decide(inspector, await linkOf(rejected), { [`choice-${rejected[0]!.seq}`]: "reject", reason: "too late" });
    const after = await app.execution(rejected[0]!.executionId, { scope: "ada" });
    expect(after?.status).toBe("error");
    expect(after?.error).toMatch(/too late/);
    expect(bought).toEqual(["tea x2"]);
  });

  it("changes nothing when expired, altered, moved to another call, another owner's, or posted cross-site", async () => {
    let now = NOW;
    const { runtime: app, inspector, bought } = setUp({ now: () => now });
    const a = await pause(app, "apples");
    const b = await pause(app, "bananas");
    const approveA = { [`choice-${a[0]!.seq}`]: "approve" };

    // Expired.
    const expiring = await linkOf(a, "ada", NOW + 1000);
    now = NOW + 1000;
    expect((await decide(inspector, expiring, approveA)).status).toBe(410);
    now = NOW;

    // Altered: the payload re-encoded with another execution id keeps the old signature.
    const token = (await linkOf(a)).split("/").at(-1)!;
    const [encoded, signature] = token.split(".");
    const payload = JSON.parse(Buffer.from(encoded!, "base64url").toString()) as unknown[];
    payload[1] = b[0]!.executionId;
    const altered = `/codemode/link/${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${signature}`;
    expect((await decide(inspector, altered, approveA)).status).toBe(400);

    // Moved: a genuine link for call A's arguments, naming execution B's call.
    const moved = await linkOf([{ ...a[0]!, executionId: b[0]!.executionId, seq: b[0]!.seq }]);
    const movedAnswer = await decide(inspector, moved, { [`choice-${b[0]!.seq}`]: "approve" });
    expect(movedAnswer.status).toBe(409);
    expect(await movedAnswer.text()).toMatch(/issued for another call/);

    // Another owner, signed in: refused before the journal is read.
    const other = await decide(inspector, await linkOf(a), approveA, { user: "bob" });
    expect(other.status).toBe(403);
    expect(await other.text()).toMatch(/belongs to another user/);

    // Another site's page posting with the person's cookie, or the same host's page over plain http.
    for (const origin of ["https://evil.example", "http://app.example", "https://app.example:8443"])
      expect((await decide(inspector, await linkOf(a), approveA, { origin })).status).toBe(403);

    expect(bought).toEqual([]);
    for (const pending of [a, b])
      expect((await app.execution(pending[0]!.executionId, { scope: "ada" }))?.status).toBe("paused");
  });

  it("opens for its owner although authorize lets only admins into the inspector, whose API the owner cannot use", async () => {
    const { runtime: app, inspector, bought } = setUp();
    const pending = await pause(app, "tea");
    expect((await open(inspector, "/codemode/api/executions")).status).toBe(401);
    expect((await open(inspector, `/codemode/api/executions/${pending[0]!.executionId}`)).status).toBe(401);
    const page = await open(inspector, await linkOf(pending));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("shop.buy");
    expect((await decide(inspector, await linkOf(pending), { [`choice-${pending[0]!.seq}`]: "approve" })).status).toBe(
      200,
    );
    expect(bought).toEqual(["tea x1"]);
  });

  it("is refused to an admin who is not its owner, to no one signed in, and when no scope tells who is signed in", async () => {
    const { runtime: app, inspector, bought } = setUp();
    const pending = await pause(app, "tea");
    const admin = await asAdmin(inspector, await linkOf(pending));
    expect(admin.status).toBe(403);
    expect(await admin.text()).toMatch(/belongs to another user/);
    const anonymous = await inspector(new Request(`${ORIGIN}${await linkOf(pending)}`));
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).toMatch(/Sign in as the user who ran the program/);

    const { runtime: other, inspector: withoutScope } = setUp({ scope: false });
    expect((await open(withoutScope, await linkOf(await pause(other, "tea")))).status).toBe(403);
    expect(bought).toEqual([]);
  });

  it("of an execution without an owner, opens only for an { unscoped: true } grant", async () => {
    const { runtime: app, inspector, bought } = setUp();
    const pending = await pause(app, "tea", null);
    const link = await linkOf(pending, null);
    expect((await open(inspector, link)).status).toBe(401);
    expect((await asAdmin(inspector, link)).status).toBe(200);
    const scopedInspector = createCodemodeInspector({
      runtime: app,
      authorize: () => ({ scope: "ada" }),
      approvalLinks: { secret: SECRET, scope: () => "ada" },
      _internal: { now: () => NOW },
    });
    const refused = await open(scopedInspector, link);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/without an owner/);
    expect(bought).toEqual([]);
  });

  it("is an option checked at construction: the secret's length, scope's type, and no read-only inspector", () => {
    const made = setUp();
    const base = { runtime: made.runtime, authorize: () => ({ unscoped: true }) as const };
    expect(() => createCodemodeInspector({ ...base, approvalLinks: { secret: "short" } })).toThrow(
      /approvalLinks\.secret.*at least 32/,
    );
    expect(() =>
      createCodemodeInspector({ ...base, approvalLinks: { secret: SECRET, scope: "ada" as never } }),
    ).toThrow(/approvalLinks\.scope/);
    expect(() => createCodemodeInspector({ ...base, readOnly: true, approvalLinks: { secret: SECRET } })).toThrow(
      /read-only/,
    );
  });
});
