import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CodecError,
  canonicalizeValue,
  decodeValue,
  deserializeValue,
  encodeValue,
  serializeValue,
  validateEncodedValue,
} from "../../src/sandbox/codec.js";
import { codecValue } from "./codec-values.js";

const roundTrip = (value: unknown): unknown => deserializeValue(serializeValue(value));

describe("codec", () => {
  it("keeps JSON values and every supported type across a round trip", () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const buffer = new Uint8Array([9, 8, 7]).buffer;
    const value = {
      text: "héllo",
      n: 1.5,
      flag: true,
      nothing: null,
      missing: undefined,
      list: [1, undefined, "x"],
      when: new Date(1_700_000_000_000),
      invalid: new Date(Number.NaN),
      bytes,
      buffer,
      map: new Map<unknown, unknown>([
        ["a", 1],
        [2, new Set([3n])],
      ]),
      set: new Set(["x", 1]),
      big: 12345678901234567890n,
      nan: Number.NaN,
      inf: Infinity,
      ninf: -Infinity,
      negzero: -0,
    };
    const back = roundTrip(value) as typeof value;
    expect(back).toEqual(value);
    expect(Object.is(back.negzero, -0)).toBe(true);
    expect("missing" in back).toBe(true);
    expect(back.bytes).toBeInstanceOf(Uint8Array);
    expect(back.buffer).toBeInstanceOf(ArrayBuffer);
    expect([...new Uint8Array(back.buffer)]).toEqual([9, 8, 7]);
    expect(back.map).toBeInstanceOf(Map);
    expect(typeof back.big).toBe("bigint");
    expect(Number.isNaN(back.invalid.getTime())).toBe(true);
  });

  it("escapes user objects that look like tags and keeps __proto__ as an own key", () => {
    const tricky = JSON.parse('{"$":"date","v":5,"__proto__":{"polluted":true}}') as object;
    const back = roundTrip(tricky) as Record<string, unknown>;
    expect(Object.keys(back).sort()).toEqual(["$", "__proto__", "v"]);
    expect(back.$).toBe("date");
    expect(Object.getOwnPropertyDescriptor(back, "__proto__")?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(encodeValue({ $: 1 })).toEqual({ $: "object", v: { $: 1 } });
  });

  it("names the path of a value that cannot cross", () => {
    const attempt = (value: unknown, path: string) => {
      try {
        encodeValue(value, { path });
      } catch (error) {
        expect(CodecError.isInstance(error)).toBe(true);
        return (error as Error).message;
      }
      throw new Error("expected a CodecError");
    };
    expect(attempt({ user: { callback: () => 1 } }, "args")).toBe(
      "args.user.callback: functions cannot cross the sandbox boundary",
    );
    expect(attempt([Symbol("s")], "args")).toBe("args[0]: symbols cannot cross the sandbox boundary");
    expect(attempt({ when: new (class Point {})() }, "result")).toMatch(/^result\.when: Point instances cannot cross/);
    expect(attempt({ "a-b": new Int16Array(2) }, "x")).toMatch(/^x\["a-b"\]: Int16Array instances/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(attempt(cyclic, "args")).toMatch(/^args\.self: cycles cannot cross/);
    const shared = { a: 1 };
    expect(() => encodeValue({ left: shared, right: shared })).not.toThrow();
  });

  it("validates untrusted trees and reports the path of the problem", () => {
    expect(validateEncodedValue({ a: [1, { $: "undefined" }] })).toBeUndefined();
    expect(validateEncodedValue({ a: { $: "nope" } })).toEqual({ path: "value.a", message: 'unknown tag "nope"' });
    expect(validateEncodedValue({ a: [{ $: "bigint", v: "1.5" }] })?.path).toBe("value.a[0]");
    expect(validateEncodedValue({ $: "bytes", v: "not base64!" })).toBeDefined();
    expect(validateEncodedValue({ $: "map", v: [[1]] })).toBeDefined();
    expect(validateEncodedValue(Number.NaN)).toBeDefined();
    expect(() => decodeValue({ x: { $: "date", v: "yesterday" } })).toThrow(/value\.x: invalid encoded date/);
    expect(() => deserializeValue("{not json")).toThrow(CodecError);
    let deep: unknown = 1;
    for (let index = 0; index < 5000; index++) deep = [deep];
    expect(validateEncodedValue(deep)?.message).toMatch(/nested deeper/);
    expect(validateEncodedValue(deep)?.path.length).toBeLessThan(130);
  });

  it("bounds nesting at 500 levels with a CodecError, never a host stack overflow", () => {
    const nest = (levels: number): unknown => {
      let value: unknown = [1];
      for (let index = 0; index < levels; index++) value = [value, new Date(0)];
      return value;
    };
    expect(canonicalizeValue(roundTrip(nest(490)))).toBe(canonicalizeValue(nest(490)));
    let error: unknown;
    try {
      serializeValue(nest(5000), { path: "args" });
    } catch (caught) {
      error = caught;
    }
    expect(CodecError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^args\[0\]\[0\].*….*: values nested deeper than 500 levels cannot cross the sandbox boundary$/,
    );
    expect((error as Error).message.length).toBeLessThan(250);
  });

  it("stops at maxChars whatever the shape: holey arrays, undefined, numbers and dates count too", () => {
    const over = (value: unknown): CodecError => {
      try {
        encodeValue(value, { maxChars: 1_000_000 });
      } catch (error) {
        return error as CodecError;
      }
      throw new Error("encoded");
    };
    // A holey array costs its maker nothing: it is refused on its length, before its first element.
    for (const value of [new Array(1e9), new Array(1e7), { list: new Array(600_000) }]) {
      expect(over(value)).toMatchObject({
        overLimit: true,
        message: expect.stringMatching(/over 1,000,000 characters/),
      });
    }
    expect(over(Array.from({ length: 100_000 }, () => undefined))).toMatchObject({ overLimit: true });
    expect(over(Array.from({ length: 600_000 }, () => 1))).toMatchObject({ overLimit: true });
    expect(over(Array.from({ length: 100_000 }, () => new Date(0)))).toMatchObject({ overLimit: true });
    // A proxy claims any length for free: refused on it too.
    const lying = new Proxy([], { get: (target, key) => (key === "length" ? 1e12 : Reflect.get(target, key)) });
    expect(over(lying)).toMatchObject({ overLimit: true });
  });

  it("a value whose getter or proxy trap throws is a CodecError, whatever it threw", () => {
    const handler = new Proxy(
      {},
      {
        get: () => () => {
          throw new Proxy(
            {},
            {
              get: () => {
                throw 1;
              },
            },
          );
        },
      },
    );
    const hostile = new Proxy({}, handler);
    const getter = Object.defineProperty({}, "x", {
      enumerable: true,
      get: () => {
        throw new Error("getter");
      },
    });
    expect(() => encodeValue(hostile, { path: "result" })).toThrow(
      /result: could not be read \(a getter or a proxy in it threw\)/,
    );
    expect(() => serializeValue(getter)).toThrow(/could not be read \(a getter or a proxy in it threw: getter\)/);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(() => encodeValue(proxy)).toThrow(CodecError);
  });

  it("canonicalizes with sorted keys so equal arguments compare equal", () => {
    expect(canonicalizeValue({ b: 1, a: { d: 2, c: [3, { f: 1, e: 2 }] } })).toBe(
      canonicalizeValue({ a: { c: [3, { e: 2, f: 1 }], d: 2 }, b: 1 }),
    );
    expect(canonicalizeValue({ a: 1 })).not.toBe(canonicalizeValue({ a: "1" }));
    expect(canonicalizeValue({ a: undefined })).not.toBe(canonicalizeValue({}));
    expect(canonicalizeValue(new Date(5))).toBe('{"$":"date","v":5}');
  });

  it("round-trips arbitrary codec values (property test)", () => {
    const seed = Date.now() % 100_000;
    fc.assert(
      fc.property(codecValue, (input) => {
        expect(roundTrip(input)).toEqual(input);
        expect(canonicalizeValue(roundTrip(input))).toBe(canonicalizeValue(input));
      }),
      { seed, numRuns: 300, verbose: true },
    );
  });
});
