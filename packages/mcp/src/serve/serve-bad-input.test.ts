import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from '@modelcontextprotocol/client';
import type { Principal } from '@skein/core';
import { FileSessionManager } from '@skein/session-file';
import { serve, type RunningServer } from '@skein/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveMcp, type ServeMcpOptions, type SkeinMcpServer } from '../index.js';
import { serveTargets, type Ledger } from '../test-support/serve-targets.js';

let dir: string;
let ledger: Ledger;
let mcp: SkeinMcpServer;
let running: RunningServer;
const clients: Client[] = [];

/** Bearer tokens: `alice`, `bob`, and `boss` (the only one who may answer approvals). */
const authorize = (request: Request): Principal | undefined => {
  const token = /^Bearer (\w+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  return token === 'alice' || token === 'bob' ? token : token === 'boss' ? { id: 'boss', boss: true } : undefined;
};

async function start(extra: Partial<ServeMcpOptions> = {}): Promise<void> {
  const options = serveTargets((id) => new FileSessionManager({ sessionId: id, storageDir: dir }), ledger);
  mcp = serveMcp({ ...options, ...extra });
  running = await serve(mcp.app, { port: 0, hostname: '127.0.0.1', handleSignals: false, log: null });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'i53m-bad-'));
  ledger = { refunds: [] };
});

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await mcp.close();
  await running.stop();
  await rm(dir, { recursive: true, force: true });
});

async function connect(token?: string, capabilities: ClientCapabilities = {}): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities });
  const requestInit = token ? { headers: { authorization: `Bearer ${token}` } } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`), { requestInit }));
  clients.push(client);
  return client;
}

const textOf = (result: { content?: unknown }): string =>
  ((result.content ?? []) as { text?: string }[]).map((c) => c.text ?? '').join('\n');
/** The progress notification's `_meta` (sent, though the SDK's callback type leaves it out). */
const metaOf = (progress: object): Record<string, unknown> =>
  (progress as { _meta?: Record<string, unknown> })._meta ?? {};
const stored = async (): Promise<string[]> => (await readdir(dir)).sort();

describe('serveMcp: bad input is a protocol-correct error and stores nothing', () => {
  it('arguments that do not match the input schema', async () => {
    await start();
    const client = await connect();
    for (const args of [
      { message: 42 },
      { message: 'hi', conversationId: '../etc' },
      { message: 'hi', extra: { a: 1 } },
      {},
    ]) {
      const result = await client.callTool({ name: 'echo', arguments: args });
      expect(result.isError, JSON.stringify(args)).toBe(true);
    }
    const both = await client.callTool({ name: 'echo', arguments: { message: 'hi', answers: {} } });
    expect(textOf(both)).toMatch(/either message .* or answers/);
    await expect(client.callTool({ name: 'nobody', arguments: { message: 'hi' } })).rejects.toThrow(
      /Tool nobody not found/,
    );
    expect(await stored()).toEqual([]);
  });

  it('an unknown conversation', async () => {
    await start();
    const client = await connect();
    const result = await client.callTool({ name: 'echo', arguments: { message: 'hi', conversationId: 'never-made' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Unknown conversation "never-made": .* Leave conversationId out to start a new one/,
    );
    expect(await stored()).toEqual([]);
  });

  it('an elicitation answered twice (its answer sent again by a tool call) changes nothing', async () => {
    await start();
    const client = await connect(undefined, { elicitation: {} });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { approved: true } }));
    let answeredId = '';
    const first = await client.callTool(
      { name: 'refund', arguments: { message: 'Refund 80 EUR please' } },
      {
        onprogress: (progress) => {
          const event = metaOf(progress)['dev.skein/event'] as { type: string; interrupts?: { id: string }[] };
          if (event.type === 'interrupt') answeredId = event.interrupts?.[0]?.id ?? '';
        },
      },
    );
    expect(answeredId).toMatch(/^tooluse_1#approval~/);
    const { conversationId } = first.structuredContent as { conversationId: string };
    expect(ledger.refunds).toEqual(['42:80']);
    const before = await stored();
    const files = await readdir(join(dir, `session_${conversationId}`), { recursive: true });
    const answerAgain = await client.callTool({
      name: 'refund',
      arguments: { conversationId, answers: { [answeredId]: { approved: true } } },
    });
    expect(answerAgain.isError).toBe(true);
    expect(textOf(answerAgain)).toMatch(/Nothing waits for an answer \(409\)/);
    expect(ledger.refunds).toEqual(['42:80']);
    expect(await stored()).toEqual(before);
    expect(await readdir(join(dir, `session_${conversationId}`), { recursive: true })).toEqual(files);
  });
});

describe('serveMcp: who may do what', () => {
  it('refuses the endpoint without credentials, and a session to anyone but its principal', async () => {
    await start({ authorize });
    await expect(connect()).rejects.toThrow();
    const alice = await connect('alice');
    await alice.listTools();
    const sessionId = (alice.transport as StreamableHTTPClientTransport).sessionId ?? '';
    const hijack = await fetch(`${running.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer bob',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(hijack.status).toBe(404);
    expect(await stored()).toEqual([]);
  });

  it("never reaches another principal's conversation", async () => {
    await start({ authorize });
    const alice = await connect('alice');
    const mine = await alice.callTool({ name: 'echo', arguments: { message: 'secret' } });
    const { conversationId } = mine.structuredContent as { conversationId: string };
    const before = await stored();
    const bob = await connect('bob');
    const theirs = await bob.callTool({ name: 'echo', arguments: { message: 'show me', conversationId } });
    expect(theirs.isError).toBe(true);
    expect(textOf(theirs)).toMatch(/^Unknown conversation/);
    expect(await stored()).toEqual(before);
  });

  it('takes an answer to an elicitation only from whom authorizeAnswer allows', async () => {
    await start({
      authorize,
      authorizeAnswer: ({ principal }) => typeof principal === 'object' && principal['boss'] === true,
    });
    const alice = await connect('alice', { elicitation: {} });
    alice.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { approved: true } }));
    const refused = await alice.callTool({ name: 'refund', arguments: { message: 'Refund 80 EUR please' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/Not allowed to answer \(403\)/);
    expect(ledger.refunds).toEqual([]);
  });

  it('bounds bodies before reading them', async () => {
    await start({ limits: { maxBodyBytes: 1000 } });
    const response = await fetch(`${running.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad: 'x'.repeat(2000) } }),
    });
    expect(response.status).toBe(413);
  });
});
