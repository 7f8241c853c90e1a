import { describe, expect, it } from "vitest";
import { FairTurns, UNKEYED, type Key } from "../../src/sandbox/fair-turns.js";

const waiter = (key: Key, id: string): { key: Key; id: string } => ({ key, id });

describe("FairTurns", () => {
  it("serves waiting runs in turn across keys, a key served going to the back", () => {
    const turns = new FairTurns<{ key: Key; id: string }>(() => 3);
    for (const [key, id] of [
      ["bob", "b1"],
      ["bob", "b2"],
      ["carol", "c1"],
      ["bob", "b3"],
      ["dan", "d1"],
    ] as const)
      turns.push(waiter(key, id));
    const served: string[] = [];
    for (let next = turns.next(true); next !== undefined; next = turns.next(true)) served.push(next.id);
    expect(served).toEqual(["b1", "c1", "d1", "b2", "b3"]);
  });

  it("skips a key that holds its share, and bounds no run without a key", () => {
    const turns = new FairTurns<{ key: Key; id: string }>(() => 1);
    turns.count("alice", 1);
    turns.push(waiter("alice", "a2"));
    turns.push(waiter(UNKEYED, "u1"));
    expect(turns.mayHoldMore("alice")).toBe(false);
    expect(turns.next(false)?.id).toBe("u1");
    expect(turns.next(true)?.id).toBe("u1");
    expect(turns.next(true)).toBeUndefined();
    turns.count("alice", -1);
    expect(turns.next(true)?.id).toBe("a2");
    turns.count(UNKEYED, 100);
    expect(turns.mayHoldMore(UNKEYED)).toBe(true);
  });

  it("removes a waiter that gave up, once", () => {
    const turns = new FairTurns<{ key: Key; id: string }>(() => 1);
    const gone = waiter("bob", "b1");
    turns.push(gone);
    expect(turns.isWaiting("bob")).toBe(true);
    expect(turns.remove(gone)).toBe(true);
    expect(turns.remove(gone)).toBe(false);
    expect(turns.isWaiting("bob")).toBe(false);
    expect(turns.size).toBe(0);
  });
});
