import { describe, expect, it } from "vitest";
import { collectSecrets, REDACTED, redactText, redactValue } from "../../../src/connectors/openapi/redact-secrets.js";

describe("redact-secrets", () => {
  it("treats credential-like headers as secrets, the token after a scheme included, and ignores short or ordinary values", () => {
    const secrets = collectSecrets({
      authorization: "Bearer abcdefgh12345",
      "x-api-key": "key-0123456789",
      "user-agent": "my-app/1.0 (contact@example.com)",
      cookie: "sid=s3ssion-value-xyz; theme=dark",
      "x-short-token": "abc",
    });
    expect(secrets).toEqual(["sid=s3ssion-value-xyz; theme=dark", "Bearer abcdefgh12345", "s3ssion-value-xyz", "key-0123456789", "abcdefgh12345"]);
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
