/**
 * The MCP door's way into the skein server: each tool call is a request to the server's own routes
 * (`POST .../messages`, `.../answers`, `.../cancel`, `GET .../pending`), handed to the app in process
 * (`app.fetch`, no socket). So a call gets exactly what an HTTP client gets: `authorize` on the caller's
 * headers, ids per principal, one writer per conversation, the limits, `authorizeAnswer`, the stored
 * conversation; there is no second runner.
 */
import type { Interrupt, JsonValue } from '@skein/core';
import type { Problem, ServerEvent, SkeinServer, TargetKind } from '@skein/server';
import { sseEvents } from './sse-events.js';

/** A target as the door calls it. */
export interface DoorTarget {
  kind: TargetKind;
  name: string;
}

/** A refusal of the server: its status and problem document. */
export class DoorRefusal extends Error {
  readonly status: number;
  readonly problem: Problem;

  constructor(status: number, problem: Problem) {
    super(problem.detail ?? problem.title);
    this.name = 'DoorRefusal';
    this.status = status;
    this.problem = problem;
  }
}

const ORIGIN = 'http://skein.mcp';
/** Headers of the caller's request that say nothing about who asks, and are not forwarded. */
const DROPPED = new Set([
  'content-length',
  'content-type',
  'accept',
  'host',
  'connection',
  'transfer-encoding',
  'last-event-id',
]);

/** Calls the server's routes for one caller (`headers`: the MCP HTTP request's, or the stdio connection's). */
export class ServerDoor {
  readonly #app: SkeinServer;
  readonly #headers: Headers;

  constructor(app: SkeinServer, callerHeaders: Headers) {
    this.#app = app;
    this.#headers = new Headers();
    callerHeaders.forEach((value, key) => {
      if (!DROPPED.has(key) && !key.startsWith('mcp-')) this.#headers.set(key, value);
    });
  }

  /** Sends `message` and yields the turn's events, ending with `turnEnd`. */
  message(target: DoorTarget, conversationId: string, message: string): AsyncGenerator<ServerEvent> {
    return this.#stream(target, conversationId, 'messages', { message });
  }

  /** Sends answers to what waits and yields the resumed turn's events. */
  answers(target: DoorTarget, conversationId: string, answers: Record<string, JsonValue>): AsyncGenerator<ServerEvent> {
    return this.#stream(target, conversationId, 'answers', { answers });
  }

  /** Re-joins the conversation's turn (a cut one is resumed); nothing when nothing runs or waits to resume. */
  async *rejoin(target: DoorTarget, conversationId: string): AsyncGenerator<ServerEvent> {
    const response = await this.#call('GET', target, conversationId, 'stream', undefined, true);
    if (response.status === 204 || !response.body) return;
    yield* sseEvents(response.body);
  }

  /** What the conversation waits for; throws a 404 refusal for a conversation this caller does not have. */
  async pending(target: DoorTarget, conversationId: string): Promise<Interrupt[]> {
    const response = await this.#call('GET', target, conversationId, 'pending');
    return ((await response.json()) as { interrupts: Interrupt[] }).interrupts;
  }

  /** Cancels the running turn (its next safe point); refusals are ignored (it may have ended). */
  async cancel(target: DoorTarget, conversationId: string): Promise<void> {
    await this.#call('POST', target, conversationId, 'cancel').catch(() => undefined);
  }

  async *#stream(target: DoorTarget, id: string, route: string, body: unknown): AsyncGenerator<ServerEvent> {
    const response = await this.#call('POST', target, id, route, body, true);
    if (!response.body) return;
    yield* sseEvents(response.body);
  }

  async #call(
    method: string,
    target: DoorTarget,
    id: string,
    route: string,
    body?: unknown,
    stream = false,
  ): Promise<Response> {
    const headers = new Headers(this.#headers);
    if (stream) headers.set('accept', 'text/event-stream');
    if (body !== undefined) headers.set('content-type', 'application/json');
    const url = `${ORIGIN}/v1/${target.kind}/${encodeURIComponent(target.name)}/conversations/${encodeURIComponent(id)}/${route}`;
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await this.#app.fetch(new Request(url, init));
    if (response.status >= 400) throw new DoorRefusal(response.status, (await response.json()) as Problem);
    return response;
  }
}
