import { describe, expect, it } from "vitest";
import { messageOf, readableError, UNREADABLE_MESSAGE } from "../../src/shared/message-of.js";

/** An Error whose `message` and `name` getters throw. */
function throwingGetters(): Error {
  const error = new Error("unread");
  for (const key of ["message", "name"]) {
    Object.defineProperty(error, key, {
      get() {
        throw new Error(key);
      },
    });
  }
  return error;
}

describe("messageOf", () => {
  it("reads errors, strings and JSON values as before", () => {
    expect(messageOf(new TypeError("bad"))).toBe("bad");
    expect(messageOf("text")).toBe("text");
    expect(messageOf({ code: 7 })).toBe('{"code":7}');
    expect(messageOf(42)).toBe("42");
    expect(messageOf(undefined)).toBe("undefined");
    expect(messageOf(1n)).toBe("1");
  });

  it("never throws, whatever was thrown", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const everyTrap = new Proxy(
      {},
      new Proxy(
        {},
        {
          get: () => () => {
            throw new Error("trap");
          },
        },
      ),
    );
    const fail = (): never => {
      throw new Error("conversion");
    };
    const unprintable = { toJSON: fail, toString: fail, [Symbol.toPrimitive]: fail };
    for (const thrown of [throwingGetters(), proxy, everyTrap, unprintable]) {
      expect(messageOf(thrown)).toBe(UNREADABLE_MESSAGE);
    }
  });

  it("walks a bounded part of a thrown value", () => {
    expect(messageOf(new Array(1e9))).toMatch(/^a thrown array too large to quote/);
    expect(messageOf({ list: new Array(1e6) })).toMatch(/^a thrown object too large to quote/);
    expect(messageOf({ text: "x".repeat(20_000) })).toMatch(/too large to quote/);
  });
});

describe("readableError", () => {
  it("is a plain Error with what could be read, never the thrown value", () => {
    const read = readableError(throwingGetters());
    expect(read).toBeInstanceOf(Error);
    expect(read.message).toBe(UNREADABLE_MESSAGE);
    expect(read.name).toBe("Error");
    expect(readableError(new RangeError("far"))).toMatchObject({ name: "RangeError", message: "far" });
  });
});
