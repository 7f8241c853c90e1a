import { describe, expect, it } from "vitest";
import { CliError, StoreConfigurationError, UnsafeRequestError } from "../src/errors.js";
import {
  CodecError,
  CodemodeArgumentError,
  CodemodeError,
  CorruptRecordError,
  InvalidOptionError,
  McpToolError,
  OutboundFetchError,
  RedirectError,
  StoreError,
} from "../src/index.js";
import { OpenApiRequestError, OpenApiResponseError } from "../src/openapi.js";

describe("errors", () => {
  it("recognises its own instances across the hierarchy", () => {
    const error = new InvalidOptionError({ path: "limits.timeoutMs", message: "must be a positive integer" });
    expect(error.message).toBe("limits.timeoutMs must be a positive integer");
    expect(CodemodeError.isInstance(error)).toBe(true);
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    expect(InvalidOptionError.isInstance(new CodemodeError({ code: "store", message: "x" }))).toBe(false);
    expect(CodemodeError.isInstance(new Error("plain"))).toBe(false);
  });

  it("every error class the package exports extends CodemodeError with its own code and isInstance", () => {
    const errors = [
      [new InvalidOptionError({ path: "name", message: "must be a string" }), InvalidOptionError, "invalid-option"],
      [
        new CodemodeArgumentError({ argument: "pruneExecutions(keep)", message: "keep must be ≥ 0" }),
        CodemodeArgumentError,
        "invalid-argument",
      ],
      [new StoreError({ message: "disk full" }), StoreError, "store"],
      [new CorruptRecordError("bad row"), CorruptRecordError, "corrupt-record"],
      [new CodecError({ path: "value", message: "functions cannot cross" }), CodecError, "codec"],
      [new McpToolError("no such entity"), McpToolError, "mcp-tool"],
      [
        new OpenApiResponseError({ operation: "GET /x", status: 404, statusText: "Not Found", excerpt: "" }),
        OpenApiResponseError,
        "openapi-response",
      ],
      [
        new OpenApiRequestError({ operation: "GET /x", failure: "unreachable", message: "could not reach the server" }),
        OpenApiRequestError,
        "openapi-request",
      ],
      [new OutboundFetchError({ message: "fetch failed" }), OutboundFetchError, "outbound-fetch"],
      [new RedirectError("more than 5 redirects"), RedirectError, "redirect"],
      [new CliError({ message: "Unknown command", usage: true }), CliError, "cli"],
      [new UnsafeRequestError("off the path"), UnsafeRequestError, "unsafe-request"],
      [new StoreConfigurationError({ message: "no folder" }), StoreConfigurationError, "store-configuration"],
    ] as const;
    const codes = new Set<string>();
    for (const [error, type, code] of errors) {
      expect(error).toBeInstanceOf(CodemodeError);
      expect(CodemodeError.isInstance(error)).toBe(true);
      expect(type.isInstance(error)).toBe(true);
      expect(error.code).toBe(code);
      codes.add(error.code);
      for (const [other, otherType] of errors) if (other !== error) expect(otherType.isInstance(error)).toBe(false);
    }
    expect(codes.size).toBe(errors.length);
  });
});
