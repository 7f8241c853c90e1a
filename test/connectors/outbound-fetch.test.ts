import { describe, expect, it } from "vitest";
import { createCatalog } from "../../src/connectors/search/catalog.js";
import {
  outboundFetchConnector,
  outboundFetchEntry,
  OUTBOUND_METHOD,
  resolveOutboundFetchOptions,
} from "../../src/connectors/outbound-fetch.js";
import { originAllowed, parseOriginRule } from "../../src/connectors/outbound-origins.js";
import type { ConnectorCallContext } from "../../src/connectors/types.js";
import { InvalidOptionError, OutboundFetchError } from "../../src/errors.js";
import { compileDiagnostics } from "./fixtures/compile-typescript.js";

const allowedBy = (entries: string[] | undefined, url: string): boolean =>
  originAllowed(
    entries?.map((entry, index) => parseOriginRule(entry, `allow[${index}]`)),
    new URL(url),
  );

function context(): ConnectorCallContext {
  return {
    executionId: "e",
    seq: 1,
    idempotencyKey: "e:1",
    toolCallId: "e:1",
    connector: "outbound",
    method: OUTBOUND_METHOD,
    abortSignal: new AbortController().signal,
    messages: [],
    context: undefined,
  };
}

describe("origin allowlist", () => {
  it("matches exact origins by scheme, host and port", () => {
    expect(allowedBy(["https://api.example.com"], "https://api.example.com/v1/items?q=1")).toBe(true);
    expect(allowedBy(["https://API.Example.com/"], "https://api.example.com/")).toBe(true);
    expect(allowedBy(["https://api.example.com"], "http://api.example.com/")).toBe(false);
    expect(allowedBy(["https://api.example.com"], "https://api.example.com:8443/")).toBe(false);
    expect(allowedBy(["https://api.example.com:443"], "https://api.example.com/")).toBe(true);
    expect(allowedBy(["https://api.example.com"], "https://api.example.com.evil.test/")).toBe(false);
    expect(allowedBy(["https://api.example.com"], "https://evil.test/?https://api.example.com")).toBe(false);
  });

  it("matches subdomain wildcards at any depth, not the apex", () => {
    expect(allowedBy(["https://*.example.com"], "https://a.example.com/")).toBe(true);
    expect(allowedBy(["https://*.example.com"], "https://a.b.example.com/")).toBe(true);
    expect(allowedBy(["https://*.example.com"], "https://example.com/")).toBe(false);
    expect(allowedBy(["https://*.example.com"], "https://badexample.com/")).toBe(false);
    expect(allowedBy(["https://*.example.com"], "http://a.example.com/")).toBe(false);
  });

  it("without an allowlist allows any http(s) origin and nothing else", () => {
    expect(allowedBy(undefined, "https://anything.test/")).toBe(true);
    expect(allowedBy(undefined, "file:///etc/passwd")).toBe(false);
  });

  it("rejects entries that are not origins, naming the path", () => {
    for (const entry of [
      "https://api.example.com/v1",
      "api.example.com",
      "ftp://x.test",
      "https://u:p@x.test",
      "https://x.test?q",
      42,
    ]) {
      expect(() => parseOriginRule(entry, "outbound.allow[0]")).toThrow(InvalidOptionError);
      expect(() => parseOriginRule(entry, "outbound.allow[0]")).toThrow(
        'outbound.allow[0] must be an origin like "https://api.example.com"',
      );
    }
  });
});

describe("outbound options", () => {
  it("refuses an unknown key with the path and the closest known key", () => {
    const fetch = async (): Promise<Response> => new Response("");
    expect(() => resolveOutboundFetchOptions({ fetch, needsAproval: () => true }, "outbound", 10)).toThrow(
      'outbound.needsAproval is not a known option (did you mean "needsApproval"?)',
    );
    expect(() => resolveOutboundFetchOptions({ fetch, requireApproval: () => true }, "outbound", 10)).toThrow(
      'outbound.requireApproval is not a known option (renamed: use "needsApproval")',
    );
    expect(() => resolveOutboundFetchOptions({ fetch, allowed: ["https://a.test"] }, "outbound", 10)).toThrow(
      InvalidOptionError,
    );
  });
});

describe("outbound connector", () => {
  it("calls the host fetch with only the program's headers and reads the response as data", async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const options = resolveOutboundFetchOptions(
      {
        fetch: async (url: string, init: RequestInit) => {
          calls.push({ url, init });
          return new Response('{"ok":true}', { status: 200, headers: { "Content-Type": "application/json" } });
        },
        allow: ["https://api.example.com"],
      },
      "outbound",
      1000,
    );
    const method = outboundFetchConnector(options).methods[OUTBOUND_METHOD]!;
    const validated = await method.validate!({
      url: "https://api.example.com/x",
      method: "post",
      headers: { "X-A": "1" },
      body: "{}",
    });
    expect(validated).toEqual({
      success: true,
      value: { url: "https://api.example.com/x", method: "POST", headers: { "x-a": "1" }, body: "{}" },
    });
    const result = await method.execute((validated as { value: unknown }).value, context());
    expect(result).toEqual({
      url: "https://api.example.com/x",
      status: 200,
      statusText: "",
      redirected: false,
      headers: { "content-type": "application/json" },
      body: '{"ok":true}',
    });
    expect(calls[0]?.init).toMatchObject({ method: "POST", headers: { "x-a": "1" }, body: "{}", redirect: "manual" });
  });

  it("a failing host fetch and a refused redirect reject with OutboundFetchError (the program sees its message)", async () => {
    const refused = new TypeError("fetch failed");
    const failing = outboundFetchConnector(
      resolveOutboundFetchOptions(
        {
          fetch: async () => {
            throw refused;
          },
          allow: ["https://api.example.com"],
        },
        "outbound",
        1000,
      ),
    ).methods[OUTBOUND_METHOD]!;
    const request = { url: "https://api.example.com/x", method: "GET", headers: {} };
    const failure = await Promise.resolve(failing.execute(request, context())).catch((error: unknown) => error);
    expect(OutboundFetchError.isInstance(failure)).toBe(true);
    expect((failure as OutboundFetchError).message).toBe("fetch failed");
    expect((failure as OutboundFetchError).cause).toBe(refused);
    const redirecting = outboundFetchConnector(
      resolveOutboundFetchOptions(
        {
          fetch: async () => new Response(null, { status: 302, headers: { location: "https://evil.test/" } }),
          allow: ["https://api.example.com"],
        },
        "outbound",
        1000,
      ),
    ).methods[OUTBOUND_METHOD]!;
    const redirected = await Promise.resolve(redirecting.execute(request, context())).catch((error: unknown) => error);
    expect(OutboundFetchError.isInstance(redirected)).toBe(true);
    expect((redirected as Error).message).toMatch(
      /^fetch: https:\/\/api\.example\.com\/x redirected to https:\/\/evil\.test/,
    );
  });

  it("stops reading a body longer than the journal can hold", async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        if (pulled > 50) controller.close();
        else controller.enqueue(new TextEncoder().encode("y".repeat(100)));
      },
    });
    const options = resolveOutboundFetchOptions({ fetch: async () => new Response(stream) }, "outbound", 250);
    const result = (await outboundFetchConnector(options).methods[OUTBOUND_METHOD]!.execute(
      { url: "https://a.test/", method: "GET", headers: {} },
      context(),
    )) as { body: string };
    expect(result.body.length).toBe(251);
    expect(pulled).toBeLessThan(10);
  });

  it("denies an origin outside the allowlist before calling the host, naming the allowed origins", async () => {
    let called = false;
    const options = resolveOutboundFetchOptions(
      {
        fetch: async () => {
          called = true;
          return new Response("");
        },
        allow: ["https://api.example.com", "https://*.internal.test"],
      },
      "outbound",
      1000,
    );
    const outcome = await outboundFetchConnector(options).methods[OUTBOUND_METHOD]!.validate!({
      url: "https://evil.test/",
    });
    expect(outcome).toEqual({
      success: false,
      error:
        "fetch: https://evil.test is not an allowed origin. Allowed origins: https://api.example.com, https://*.internal.test.",
    });
    expect(called).toBe(false);
  });

  it("search finds fetch and describe declares it (valid TypeScript)", () => {
    const entry = outboundFetchEntry([parseOriginRule("https://api.example.com", "allow[0]")]);
    const catalog = createCatalog({ connectors: {}, snippets: [], globals: [entry] });
    expect(catalog.search("http request to an api").results[0]?.path).toBe("fetch");
    const described = catalog.describe("fetch");
    expect(described).toMatchObject({ path: "fetch", kind: "method" });
    expect((described as { types: string }).types).toContain("declare function fetch(url: string");
    expect((described as { types: string }).types).toContain("https://api.example.com");
    expect(compileDiagnostics({ "fetch.d.ts": (described as { types: string }).types })).toEqual([]);
    expect(createCatalog({ connectors: {}, snippets: [] }).describe("fetch")).toHaveProperty("error");
  });
});
