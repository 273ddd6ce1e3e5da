/**
 * The MCP session's memory of what it sent on each stream, so that a client whose connection dropped
 * gets the rest when it comes back (`Last-Event-ID`): the SDK transport's `EventStore`, in memory,
 * bounded (the oldest events go first). It has no `getStreamIdForEventId`, so a client that comes back
 * while the server still thinks its old connection open takes the stream over (no 409).
 */
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

interface Stored {
  id: string;
  stream: string;
  message: JSONRPCMessage;
}

/** A bounded in-memory event store for one MCP session. */
export class ReplayStore implements EventStore {
  readonly #events: Stored[] = [];
  readonly #max: number;
  #next = 0;

  constructor(maxEvents: number) {
    this.#max = Math.max(1, maxEvents);
  }

  async storeEvent(stream: string, message: JSONRPCMessage): Promise<string> {
    const id = `${stream}.${this.#next++}`;
    this.#events.push({ id, stream, message });
    if (this.#events.length > this.#max) this.#events.shift();
    return id;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (id: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const at = this.#events.findIndex((e) => e.id === lastEventId);
    const stream = this.#events[at]?.stream;
    if (at < 0 || stream === undefined) return '';
    for (const event of this.#events.slice(at + 1)) if (event.stream === stream) await send(event.id, event.message);
    return stream;
  }
}
