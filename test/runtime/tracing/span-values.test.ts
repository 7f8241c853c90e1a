import { describe, expect, it } from "vitest";
import {
  credentialValues,
  MAX_SPAN_SECRETS,
  maskedUrl,
  MAX_SPAN_VALUE_CHARS,
  spanValueText,
} from "../../../src/runtime/tracing/span-values.js";

describe("program values on spans", () => {
  it("are the codec's text: plain JSON for JSON values, tags for the others", () => {
    expect(spanValueText({ repo: "acme/web", number: 42 })).toBe('{"repo":"acme/web","number":42}');
    expect(spanValueText(new Map([["a", 1n]]))).toBe('{"$":"map","v":[["a",{"$":"bigint","v":"1"}]]}');
    expect(spanValueText(undefined)).toBe('{"$":"undefined"}');
  });

  it("mask credential-like headers and URL parameters of requests and responses", () => {
    const text = spanValueText({
      url: "https://api.example.com/items?api_key=sk-live-123456789&page=2",
      method: "GET",
      headers: { Authorization: "Bearer sk-live-123456789", "X-Api-Key": "sk-live-123456789", accept: "json" },
    });
    expect(text).not.toContain("sk-live-123456789");
    expect(JSON.parse(text)).toEqual({
      url: "https://api.example.com/items?api_key=[redacted]&page=[redacted]",
      method: "GET",
      headers: { Authorization: "[redacted]", "X-Api-Key": "[redacted]", accept: "json" },
    });
    expect(JSON.parse(spanValueText({ status: 200, headers: { "set-cookie": "session=abcdefghijkl" } }))).toEqual({
      status: 200,
      headers: { "set-cookie": "[redacted]" },
    });
  });

  it("mask userinfo, every unlisted query value, the fragment and headers in every shape", () => {
    const url = "https://user-0123456:pass-0123456@api.example.com/x?sig=abcdefgh123&page=2&bare-token-99#tok-frag-123";
    expect(maskedUrl(url)).toBe("https://api.example.com/x?sig=[redacted]&page=[redacted]&[redacted]#[redacted]");
    expect(maskedUrl(url, new Set(["page"]))).toBe(
      "https://api.example.com/x?sig=[redacted]&page=2&[redacted]#[redacted]",
    );
    expect(maskedUrl("http:user-0123456:pass@api.example.com/")).toBe("http://api.example.com/");
    expect(maskedUrl("not a url?token=abcdefgh")).toBe("[redacted]");
    expect(maskedUrl("not a url")).toBe("not a url");
    const pairs = JSON.parse(
      spanValueText({
        url: "https://a.example/",
        headers: [
          ["X-Sig", "pair-0123456"],
          ["Accept", "json"],
        ],
      }),
    );
    expect(pairs.headers).toEqual([
      ["X-Sig", "[redacted]"],
      ["Accept", "json"],
    ]);
    expect(spanValueText({ headers: new Map([["x-custom", "map-0123456"]]) })).not.toContain("map-0123456");
    expect(credentialValues({ url, headers: [["x-sig", "pair-0123456"]] })).toEqual(
      expect.arrayContaining([
        "user-0123456:pass-0123456",
        "pass-0123456",
        "abcdefgh123",
        "bare-token-99",
        "tok-frag-123",
        "pair-0123456",
      ]),
    );
  });

  it("redact a request's credentials wherever they appear in its result (a server echoing them)", () => {
    const request = {
      url: "https://api.example.com/?token=tok-url-12345678",
      headers: { authorization: "Bearer tok-header-12345678", accept: "text/plain" },
    };
    const secrets = credentialValues(request);
    expect(secrets).toEqual(["Bearer tok-header-12345678", "tok-header-12345678", "tok-url-12345678"]);
    const text = spanValueText({ body: "you sent tok-header-12345678 and tok-url-12345678" }, secrets);
    expect(text).toBe('{"body":"you sent [redacted] and [redacted]"}');
    expect(credentialValues({ headers: { accept: "text/plain" } })).toEqual([]);
    // A program controls how many headers it sends: the search is bounded (the rest are still masked).
    const many = Object.fromEntries(
      Array.from({ length: 10_000 }, (_, index) => [`x-token-${index}`, `secret-${index}-abcdefgh`]),
    );
    expect(credentialValues({ headers: many })).toHaveLength(MAX_SPAN_SECRETS);
    expect(spanValueText({ headers: many })).not.toMatch(/secret-/);
    expect(credentialValues("not a request")).toEqual([]);
  });

  it("are bounded: a long value is cut with a note, a huge one is not serialized at all", () => {
    const long = spanValueText("x".repeat(MAX_SPAN_VALUE_CHARS * 2));
    expect(long.length).toBe(MAX_SPAN_VALUE_CHARS);
    expect(long).toMatch(/more characters cut\]$/);
    const huge = spanValueText({ rows: Array.from({ length: 20_000 }, (_, index) => ({ index })) });
    expect(huge).toMatch(/^\[not recorded: .*over 32,768 characters/);
    expect(spanValueText({ fn: () => 1 })).toMatch(/^\[not recorded: .*functions cannot cross/);
  });
});
