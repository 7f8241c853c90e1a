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

/** A runtime whose `shop.buy` needs approval (and may be edited) and counts what it bought. */
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
    authorize: (request) => request.headers.get("cookie")?.startsWith("user=") === true,
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

async function pause(target: CodemodeRuntime, item: string, owner = "ada"): Promise<PendingAction[]> {
  const output = await target.execute({
    code: `async () => shop.buy({ item: ${JSON.stringify(item)} })`,
    scope: owner,
  });
  if (output.status !== "paused") throw new Error(`expected a pause, got ${output.status}`);
  return output.pending;
}

function linkOf(pending: PendingAction[], owner: string | undefined = "ada", expiresAt = NOW + 60_000): string {
  return `/codemode/link/${createApprovalLinkToken({ secret: SECRET, pending, owner, expiresAt })}`;
}

function open(inspector: (request: Request) => Promise<Response>, path: string, user = "ada"): Promise<Response> {
  return inspector(new Request(`${ORIGIN}${path}`, { headers: { cookie: `user=${user}` } }));
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
    const link = linkOf(pending);
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
    const answer = await decide(inspector, linkOf(edited), {
      [`choice-${seq}`]: "edit",
      [`args-${seq}`]: '{"item":"tea","quantity":2}',
    });
    expect(answer.status).toBe(200);
    expect(bought).toEqual(["tea x2"]);
    const detail = await app.execution(edited[0]!.executionId, { scope: "ada" });
    expect(detail?.calls[0]).toMatchObject({ approvedArgs: { item: "tea", quantity: 2 }, decidedBy: "approval link" });

    const rejected = await pause(app, "coffee");
    await decide(inspector, linkOf(rejected), { [`choice-${rejected[0]!.seq}`]: "reject", reason: "too late" });
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
    const expiring = linkOf(a, "ada", NOW + 1000);
    now = NOW + 1000;
    expect((await decide(inspector, expiring, approveA)).status).toBe(410);
    now = NOW;

    // Altered: the payload re-encoded with another execution id keeps the old signature.
    const token = linkOf(a).split("/").at(-1)!;
    const [encoded, signature] = token.split(".");
    const payload = JSON.parse(Buffer.from(encoded!, "base64url").toString()) as unknown[];
    payload[1] = b[0]!.executionId;
    const altered = `/codemode/link/${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${signature}`;
    expect((await decide(inspector, altered, approveA)).status).toBe(400);

    // Moved: a genuine link for call A's arguments, naming execution B's call.
    const moved = linkOf([{ ...a[0]!, executionId: b[0]!.executionId, seq: b[0]!.seq }]);
    const movedAnswer = await decide(inspector, moved, { [`choice-${b[0]!.seq}`]: "approve" });
    expect(movedAnswer.status).toBe(409);
    expect(await movedAnswer.text()).toMatch(/issued for another call/);

    // Another owner, signed in: refused before the journal is read.
    const other = await decide(inspector, linkOf(a), approveA, { user: "bob" });
    expect(other.status).toBe(403);
    expect(await other.text()).toMatch(/belongs to another user/);

    // Another site's page posting with the person's cookie.
    expect((await decide(inspector, linkOf(a), approveA, { origin: "https://evil.example" })).status).toBe(403);

    expect(bought).toEqual([]);
    for (const pending of [a, b])
      expect((await app.execution(pending[0]!.executionId, { scope: "ada" }))?.status).toBe("paused");
  });

  it("is refused when the inspector cannot tell who is signed in, and when authorize says no", async () => {
    const { runtime: app, inspector, bought } = setUp({ scope: false });
    const pending = await pause(app, "tea");
    expect((await open(inspector, linkOf(pending))).status).toBe(403);
    const anonymous = await inspector(new Request(`${ORIGIN}${linkOf(pending)}`));
    expect(anonymous.status).toBe(401);
    expect(bought).toEqual([]);
  });

  it("is an option checked at construction: the secret's length, scope's type, and no read-only inspector", () => {
    const made = setUp();
    const base = { runtime: made.runtime, authorize: () => true };
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
