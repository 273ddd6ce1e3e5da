import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from '@modelcontextprotocol/client';
import { InMemorySessionRepository, RepositorySessionManager } from '@skein/core';
import { serve, type RunningServer } from '@skein/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serveMcp, type SkeinMcpServer } from '../index.js';
import { serveTargets, type Ledger } from '../test-support/serve-targets.js';

let repository: InMemorySessionRepository;
let ledger: Ledger;
let mcp: SkeinMcpServer;
let running: RunningServer;
const clients: Client[] = [];

beforeEach(async () => {
  repository = new InMemorySessionRepository();
  ledger = { refunds: [] };
  mcp = serveMcp(serveTargets((id) => new RepositorySessionManager({ sessionId: id, repository }), ledger));
  running = await serve(mcp.app, { port: 0, handleSignals: false, log: null });
});

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await mcp.close();
  await running.stop();
});

async function connect(capabilities: ClientCapabilities = {}): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`)));
  clients.push(client);
  return client;
}

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
}

interface Turn {
  conversationId: string;
  turn: number;
  status: string;
  text: string;
  waiting: { id: string; name: string }[];
}

const turnOf = (result: { structuredContent?: unknown }): Turn => result.structuredContent as Turn;

describe('serveMcp over streamable HTTP, with the SDK client', () => {
  it('lists one tool per agent, graph and swarm, named as served, with the turn input and output', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['desk', 'echo', 'refund', 'slow']);
    const echo = tools.find((t) => t.name === 'echo');
    expect(Object.keys(echo?.inputSchema.properties ?? {}).sort()).toEqual(['answers', 'conversationId', 'message']);
    expect(Object.keys(echo?.outputSchema?.properties ?? {})).toContain('conversationId');
  });

  it('calls an agent, then continues the conversation by its id (the store holds both turns)', async () => {
    const client = await connect();
    const first = await client.callTool({ name: 'echo', arguments: { message: 'Hi there' } });
    expect(first.isError).toBeFalsy();
    expect(textOf(first)).toContain('You said: Hi there');
    const { conversationId } = turnOf(first);
    expect(textOf(first)).toContain(`conversationId: ${conversationId}`);
    const second = await client.callTool({ name: 'echo', arguments: { message: 'Again', conversationId } });
    expect(turnOf(second)).toMatchObject({ conversationId, turn: 2, status: 'completed', text: 'You said: Again' });
    const stored = (await (
      await mcp.app.fetch(new Request(`http://x/v1/agents/echo/conversations/${conversationId}`))
    ).json()) as {
      messages: { role: string }[];
    };
    expect(stored.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('sends the run events as progress notifications, each with its run-tree path', async () => {
    const client = await connect();
    const lines: string[] = [];
    const paths: unknown[] = [];
    const result = await client.callTool(
      { name: 'desk', arguments: { message: 'My card was charged twice' } },
      {
        onprogress: (p) => {
          lines.push(p.message ?? '');
          paths.push(
            ((p as { _meta?: Record<string, unknown> })._meta?.['dev.skein/event'] as { path?: unknown } | undefined)
              ?.path,
          );
        },
      },
    );
    expect(turnOf(result).status).toBe('completed');
    expect(lines).toContain('triage started');
    expect(lines).toContain('answer started');
    expect(lines.some((l) => /edge triage -> answer/.test(l))).toBe(true);
    expect(paths).toContainEqual([]);
  });

  it('asks an approval by elicitation when the client can answer one, and goes on with the answer', async () => {
    const client = await connect({ elicitation: {} });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { approved: true, note: 'fine by me' } };
    });
    const result = await client.callTool({ name: 'refund', arguments: { message: 'Refund 80 EUR please' } });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/refund asks for approval \(tool issue_refund/);
    expect(turnOf(result)).toMatchObject({ status: 'completed', text: 'Refund: refunded 80 EUR for order 42' });
    expect(ledger.refunds).toEqual(['42:80']);
  });

  it('a declined elicitation denies the approval', async () => {
    const client = await connect({ elicitation: {} });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
    const result = await client.callTool({ name: 'refund', arguments: { message: 'Refund 80 EUR please' } });
    expect(turnOf(result).status).toBe('completed');
    expect(ledger.refunds).toEqual([]);
  });

  it('without elicitation the result says what waits, and a second call with answers goes on', async () => {
    const client = await connect();
    const first = await client.callTool({ name: 'refund', arguments: { message: 'Refund 80 EUR please' } });
    const waiting = turnOf(first);
    expect(waiting.status).toBe('interrupted');
    expect(waiting.waiting).toHaveLength(1);
    const id = waiting.waiting[0]?.id ?? '';
    expect(textOf(first)).toContain(`${id}: approval from refund`);
    expect(ledger.refunds).toEqual([]);
    const second = await client.callTool({
      name: 'refund',
      arguments: { conversationId: waiting.conversationId, answers: { [id]: { approved: true } } },
    });
    expect(turnOf(second)).toMatchObject({ status: 'completed', text: 'Refund: refunded 80 EUR for order 42' });
    expect(ledger.refunds).toEqual(['42:80']);
  });

  it("a client's cancellation cancels the turn at its next safe point", async () => {
    const client = await connect();
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'slow', arguments: { message: 'x'.repeat(400) } },
      { signal: controller.signal, onprogress: () => undefined },
    );
    await vi.waitUntil(() => mcp.app.skein.runningTurns === 1, { timeout: 5000 });
    const started = Date.now();
    controller.abort('changed my mind');
    await expect(call).rejects.toThrow();
    await vi.waitUntil(() => mcp.app.skein.runningTurns === 0, { timeout: 5000, interval: 10 });
    expect(Date.now() - started).toBeLessThan(2000); // the whole answer streams for ~4 s
    const listed = (await (await mcp.app.fetch(new Request('http://x/v1/agents/slow/conversations'))).json()) as {
      conversations: { id: string }[];
    };
    const id = listed.conversations[0]?.id ?? '';
    const read = (await (await mcp.app.fetch(new Request(`http://x/v1/agents/slow/conversations/${id}`))).json()) as {
      status: string;
    };
    expect(read.status).toBe('cancelled');
  });

  it('a dropped connection is resumed: the client comes back with Last-Event-ID and gets the result', async () => {
    const client = await connect();
    let progress = 0;
    const call = client.callTool(
      { name: 'slow', arguments: { message: 'y'.repeat(40) } },
      { onprogress: () => progress++ },
    );
    await vi.waitUntil(() => mcp.app.skein.runningTurns === 1, { timeout: 5000 });
    (running.server as { closeAllConnections(): void }).closeAllConnections();
    const result = await call;
    expect(turnOf(result)).toMatchObject({ status: 'completed', text: `You said: ${'y'.repeat(40)}` });
    const again = await client.callTool({ name: 'echo', arguments: { message: 'still here' } });
    expect(textOf(again)).toContain('You said: still here');
  });
});
