import { describe, expect, it } from "vitest";
import {
  collectSecrets,
  REDACTED,
  redactBytes,
  redactText,
  redactValue,
} from "../../../src/connectors/openapi/redact-secrets.js";

describe("redact-secrets", () => {
  it("treats credential-like headers as secrets, the token after a scheme included, and ignores short or ordinary values", () => {
    const secrets = collectSecrets({
      authorization: "Bearer abcdefgh12345",
      "x-api-key": "key-0123456789",
      "user-agent": "my-app/1.0 (contact@example.com)",
      cookie: "sid=s3ssion-value-xyz; theme=dark",
      "x-short-token": "abc",
    });
    expect(secrets).toEqual([
      "sid=s3ssion-value-xyz; theme=dark",
      "Bearer abcdefgh12345",
      "s3ssion-value-xyz",
      "key-0123456789",
      "abcdefgh12345",
    ]);
  });

  it("redacts inside strings and keys, keeps the value when nothing matches, and keeps __proto__ an ordinary key", () => {
    const secrets = ["abcdefgh12345"];
    expect(redactText("token abcdefgh12345!", secrets)).toBe(`token ${REDACTED}!`);
    const clean = { a: [1, "x", { b: null }] };
    expect(redactValue(clean, secrets)).toBe(clean);
    const parsed = JSON.parse('{"__proto__": {"polluted": "abcdefgh12345"}, "abcdefgh12345": 1}') as object;
    const redacted = redactValue(parsed, secrets) as Record<string, unknown>;
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(Object.keys(redacted)).toEqual(["__proto__", REDACTED]);
    expect(redacted["__proto__"]).toEqual({ polluted: REDACTED });
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

describe("redactBytes", () => {
  const secrets = ["abcdefgh12345"];
  const bytesOf = (text: string, encoding: "utf8" | "utf16le" = "utf8") => new Uint8Array(Buffer.from(text, encoding));

  it("redacts a credential echoed as UTF-8, UTF-16 (both byte orders) or percent-encoded bytes, and keeps the bytes around it", () => {
    expect(
      Buffer.from(redactBytes(bytesOf("\u0000\u00ff token abcdefgh12345 \u0001"), secrets)).toString("latin1"),
    ).toBe(`\u0000\u00c3\u00bf token ${REDACTED} \u0001`);
    expect(Buffer.from(redactBytes(bytesOf("x abcdefgh12345 y", "utf16le"), secrets)).toString("utf16le")).toBe(
      `x ${REDACTED} y`,
    );
    const bigEndian = Buffer.from("abcdefgh12345", "utf16le").swap16();
    expect(
      Buffer.from(redactBytes(new Uint8Array(bigEndian), secrets))
        .swap16()
        .toString("utf16le"),
    ).toBe(REDACTED);
    expect(Buffer.from(redactBytes(bytesOf("q=a%20b%3Dc12345"), ["a b=c12345"])).toString()).toBe(`q=${REDACTED}`);
  });

  it("returns the same bytes when no credential occurs", () => {
    const clean = new Uint8Array([0, 1, 2, 255, 97, 98]);
    expect(redactBytes(clean, secrets)).toBe(clean);
    expect(redactBytes(clean, [])).toBe(clean);
  });
});
