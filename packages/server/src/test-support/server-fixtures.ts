/** Agents, graphs and stores for the server's tests: scripted models, a shared in-memory store, tools that count. */
import { z } from 'zod';
import {
  Agent,
  InMemorySessionRepository,
  RepositorySessionManager,
  messageText,
  tool,
  type Message,
  type ModelRequest,
  type SessionManager,
} from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { createServer, type ServerOptions, type SkeinServer } from '../index.js';

/** Sessions in one shared in-memory repository (each call a fresh manager, as the server wants). */
export function memorySessions(): { repository: InMemorySessionRepository; sessions: (id: string) => SessionManager } {
  const repository = new InMemorySessionRepository();
  return { repository, sessions: (id) => new RepositorySessionManager({ sessionId: id, repository }) };
}

function lastUserText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user' && m.content.some((b) => 'text' in b)) return messageText(m);
  }
  return '';
}

/** A model that answers "You said: <last user text>" (after `delayMs`). */
export function echoModel(delayMs = 0): ScriptedModel {
  const turn = (request: ModelRequest): ScriptedTurn => ({
    text: `You said: ${lastUserText(request.messages)}`,
    delayMs,
  });
  return new ScriptedModel([turn], { loop: true, record: false });
}

/** A model that streams "You said: <last user text>" in 4-character chunks, `chunkDelayMs` apart. */
export function trickleModel(chunkDelayMs: number): ScriptedModel {
  const turn = (request: ModelRequest): ScriptedTurn => ({
    text: `You said: ${lastUserText(request.messages)}`,
    chunkDelayMs,
  });
  return new ScriptedModel([turn], { loop: true, record: false, chunkSize: 4 });
}

/** Counts calls of the refund tool, across the fresh agents of every request. */
export interface RefundLedger {
  refunds: string[];
}

/** A model that refunds the order named in the message (a tool that needs approval over 50), then reports. */
export function refundModel(): ScriptedModel {
  const turn = (request: ModelRequest): ScriptedTurn => {
    const last = request.messages[request.messages.length - 1];
    const result = last?.content.find((b) => 'toolResult' in b);
    if (result && 'toolResult' in result) {
      const content = result.toolResult.content.map((c) => ('text' in c ? c.text : JSON.stringify(c))).join(' ');
      return `Refund: ${content}`;
    }
    const amount = Number(/(\d+) EUR/.exec(lastUserText(request.messages))?.[1] ?? 10);
    return { text: 'Let me refund that.', toolUses: [{ name: 'issue_refund', input: { orderId: '42', amount } }] };
  };
  return new ScriptedModel([turn], { loop: true, record: false });
}

/** The refund tool, recording each refund in `ledger`. */
export function refundTool(ledger: RefundLedger) {
  return tool({
    name: 'issue_refund',
    description: 'Refunds an order',
    inputSchema: z.object({ orderId: z.string(), amount: z.number() }),
    needsApproval: ({ amount }) => amount > 50,
    callback: ({ orderId, amount }) => {
      ledger.refunds.push(`${orderId}:${amount}`);
      return `refunded ${amount} EUR for order ${orderId}`;
    },
  });
}

/** A server with an echo agent, a refund agent and a two-node graph, on one in-memory store. */
export function testServer(extra: Partial<ServerOptions> = {}): {
  app: SkeinServer;
  repository: InMemorySessionRepository;
  ledger: RefundLedger;
} {
  const { repository, sessions } = memorySessions();
  const ledger: RefundLedger = { refunds: [] };
  const app = createServer({
    agents: {
      echo: ({ sessionManager }) => new Agent({ name: 'echo', model: echoModel(), sessionManager }),
      slow: ({ sessionManager }) => new Agent({ name: 'slow', model: trickleModel(15), sessionManager }),
      refund: ({ sessionManager }) =>
        new Agent({ name: 'refund', model: refundModel(), tools: [refundTool(ledger)], sessionManager }),
    },
    graphs: {
      desk: ({ sessionManager }) =>
        new GraphBuilder()
          .addNode(new Agent({ name: 'triage', model: echoModel() }))
          .addNode(new Agent({ name: 'answer', model: echoModel() }))
          .addEdge('triage', 'answer')
          .setSessionManager(sessionManager)
          .build(),
      slowdesk: ({ sessionManager }) =>
        new GraphBuilder()
          .addNode(new Agent({ name: 'triage', model: echoModel() }))
          .addNode(new Agent({ name: 'answer', model: trickleModel(15) }))
          .addEdge('triage', 'answer')
          .setSessionManager(sessionManager)
          .build(),
    },
    sessions,
    onError: () => undefined,
    ...extra,
  });
  return { app, repository, ledger };
}

/** A JSON POST. */
export function post(
  app: SkeinServer,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(
    app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
  );
}

/** Parses an SSE body into events (`id`, `event`, `data` parsed as JSON). For the server's own format only. */
export async function readSse(response: Response): Promise<{ id?: string; event?: string; data: unknown }[]> {
  const text = await response.text();
  const events: { id?: string; event?: string; data: unknown }[] = [];
  for (const frame of text.split('\n\n')) {
    if (frame.trim() === '' || frame.startsWith(':')) continue;
    const fields: Record<string, string> = {};
    for (const line of frame.split('\n')) {
      const at = line.indexOf(': ');
      if (at > 0) fields[line.slice(0, at)] = line.slice(at + 2);
    }
    if (fields['data'] === undefined) continue;
    events.push({
      ...(fields['id'] !== undefined ? { id: fields['id'] } : {}),
      ...(fields['event'] !== undefined ? { event: fields['event'] } : {}),
      data: JSON.parse(fields['data']),
    });
  }
  return events;
}

/** Reads SSE frames from a live response until `count` data frames arrived, then disconnects. */
export async function readSome(
  response: Response,
  count: number,
): Promise<{ id?: string; event?: string; data: unknown }[]> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const frames = (): string[] => text.split('\n\n').filter((f) => f.includes('data: '));
  while (frames().length < count + 1) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  const kept = frames().slice(0, count).join('\n\n') + '\n\n';
  return readSse(new Response(kept));
}

/**
 * A store that "dies" like a killed process: after the write for which `dieAfter` says so, every
 * further write hangs forever (nothing more is stored). Reads go on. A second server on `inner` plays
 * the restarted process.
 */
export function dyingStore(dieAfter: (op: string, args: unknown[]) => boolean): {
  inner: InMemorySessionRepository;
  sessions: (id: string) => SessionManager;
  died: () => boolean;
} {
  const inner = new InMemorySessionRepository();
  let dead = false;
  const isWrite = (name: string): boolean => /^(create|update|delete|put|append|writeBatch)/.test(name);
  const proxy = new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (typeof name !== 'string' || !isWrite(name)) return (value as (...a: unknown[]) => unknown).bind(target);
      return async (...args: unknown[]) => {
        if (dead) return new Promise(() => undefined);
        const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (dieAfter(name, args)) dead = true;
        return result;
      };
    },
  });
  return {
    inner,
    sessions: (id) => new RepositorySessionManager({ sessionId: id, repository: proxy }),
    died: () => dead,
  };
}

/** True for a stored message holding a tool result. */
export function isToolResultMessage(op: string, args: unknown[]): boolean {
  if (op !== 'createMessage') return false;
  const stored = args[2] as { message?: Message } | undefined;
  return stored?.message?.content.some((b) => 'toolResult' in b) ?? false;
}
