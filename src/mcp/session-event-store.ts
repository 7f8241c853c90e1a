/**
 * The SSE events of one MCP session (2025-11-25 Streamable HTTP), kept in memory so a client whose
 * POST stream dropped before its response can reconnect with `Last-Event-ID` and get what it
 * missed. With a store the SDK's transport opens each POST stream with a priming event (an id,
 * empty data) and the `retry` interval. Bounded: the oldest events go first once the session holds
 * `maxEvents` or `maxChars` of them (a long-gone stream cannot be resumed; nothing else changes).
 */
import type { EventId, EventStore, JSONRPCMessage, StreamId } from "@modelcontextprotocol/server";

/** Events one session keeps at most. */
const DEFAULT_MAX_EVENTS = 256;
/** Characters of serialized events one session keeps at most (tool results can be large). */
const DEFAULT_MAX_CHARS = 2_000_000;

interface StoredEvent {
  streamId: StreamId;
  message: JSONRPCMessage;
  chars: number;
}

/** An event store for one session. */
export function createSessionEventStore({
  maxEvents = DEFAULT_MAX_EVENTS,
  maxChars = DEFAULT_MAX_CHARS,
}: {
  maxEvents?: number;
  maxChars?: number;
} = {}): EventStore {
  // Insertion order is event order: replay walks forward from the last event the client saw.
  const events = new Map<EventId, StoredEvent>();
  let chars = 0;
  let next = 0;

  const evict = (): void => {
    for (const [eventId, event] of events) {
      if (events.size <= maxEvents && chars <= maxChars) return;
      events.delete(eventId);
      chars -= event.chars;
    }
  };

  return {
    storeEvent(streamId, message) {
      const eventId = `${streamId}_${++next}`;
      const size = JSON.stringify(message).length;
      events.set(eventId, { streamId, message, chars: size });
      chars += size;
      evict();
      return Promise.resolve(eventId);
    },
    getStreamIdForEventId(eventId) {
      return Promise.resolve(events.get(eventId)?.streamId);
    },
    async replayEventsAfter(lastEventId, { send }) {
      const last = events.get(lastEventId);
      if (last === undefined) return "";
      let after = false;
      for (const [eventId, event] of [...events]) {
        if (eventId === lastEventId) {
          after = true;
          continue;
        }
        // A priming event has no message to replay.
        if (after && event.streamId === last.streamId && "jsonrpc" in event.message) await send(eventId, event.message);
      }
      return last.streamId;
    },
  };
}
