/**
 * The in-memory SSE event store of one MCP session: replay after an event of a stream sends that
 * stream's later events only (never a priming event's empty message), an unknown id names no
 * stream, and the store stays within its bounds by dropping its oldest events.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { createSessionEventStore } from "../../src/mcp/session-event-store.js";

const note = (n: number): JSONRPCMessage => ({ jsonrpc: "2.0", method: "notifications/message", params: { n } });

async function replay(store: ReturnType<typeof createSessionEventStore>, after: string) {
  const sent: Array<[string, JSONRPCMessage]> = [];
  const streamId = await store.replayEventsAfter(after, {
    send: async (eventId, message) => {
      sent.push([eventId, message]);
    },
  });
  return { streamId, sent };
}

describe("createSessionEventStore", () => {
  it("replays the later events of the same stream, without priming events", async () => {
    const store = createSessionEventStore();
    const priming = await store.storeEvent("a", {} as JSONRPCMessage);
    const first = await store.storeEvent("a", note(1));
    await store.storeEvent("b", note(2));
    const third = await store.storeEvent("a", note(3));
    expect(await store.getStreamIdForEventId?.(first)).toBe("a");
    const { streamId, sent } = await replay(store, priming);
    expect(streamId).toBe("a");
    expect(sent).toEqual([
      [first, note(1)],
      [third, note(3)],
    ]);
    expect((await replay(store, third)).sent).toEqual([]);
  });

  it("an id it never gave names no stream and replays nothing", async () => {
    const store = createSessionEventStore();
    await store.storeEvent("a", note(1));
    expect(await store.getStreamIdForEventId?.("a_999")).toBeUndefined();
    expect(await replay(store, "a_999")).toEqual({ streamId: "", sent: [] });
  });

  it("keeps at most maxEvents and maxChars, dropping the oldest first", async () => {
    const byCount = createSessionEventStore({ maxEvents: 3 });
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push(await byCount.storeEvent("a", note(n)));
    expect(await byCount.getStreamIdForEventId?.(ids[1]!)).toBeUndefined();
    expect((await replay(byCount, ids[2]!)).sent.map(([id]) => id)).toEqual([ids[3], ids[4]]);

    const size = JSON.stringify(note(0)).length;
    const byChars = createSessionEventStore({ maxChars: size * 2 });
    const kept: string[] = [];
    for (let n = 0; n < 4; n++) kept.push(await byChars.storeEvent("a", note(n)));
    expect(await byChars.getStreamIdForEventId?.(kept[1]!)).toBeUndefined();
    expect(await byChars.getStreamIdForEventId?.(kept[2]!)).toBe("a");
  });
});
