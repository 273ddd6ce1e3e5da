import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, type ClientCapabilities } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const here = fileURLToPath(new URL('.', import.meta.url));
const bin = resolve(here, '../../../inspector/src/bin.ts');
const module = resolve(here, '../test-support/serve-module.ts');

let dir: string;
const clients: Client[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'i53m-stdio-'));
});

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await rm(dir, { recursive: true, force: true });
});

/** Starts `skein mcp serve` on the test module as a child process, and the SDK's client on its stdio. */
async function start(
  capabilities: ClientCapabilities = {},
): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--conditions=@skein/source', '--import', 'tsx', bin, 'mcp', 'serve', module],
    env: { ...(process.env as Record<string, string>), SKEIN_MCP_TEST_DIR: dir },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stdio-test', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

/** The server's records of the conversations in the store. */
async function records(): Promise<{ name: string; current?: { status: string } }[]> {
  const found: { name: string; current?: { status: string } }[] = [];
  for (const file of await readdir(dir, { recursive: true })) {
    if (!file.endsWith(join('multi_agent_skein-server', 'multi_agent.json'))) continue;
    const text = await readFile(join(dir, file), 'utf8').catch(() => '');
    if (text) found.push((JSON.parse(text) as { state: { name: string; current?: { status: string } } }).state);
  }
  return found;
}

type Turn = { conversationId: string; turn: number; status: string; text: string };
const turnOf = (result: { structuredContent?: unknown }): Turn => result.structuredContent as Turn;

describe('skein mcp serve <module>, with the SDK client over stdio', () => {
  it('lists the tools, calls one, and continues the conversation by id', async () => {
    const { client } = await start();
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['desk', 'echo', 'refund', 'slow']);
    const first = turnOf(await client.callTool({ name: 'desk', arguments: { message: 'Charged twice' } }));
    expect(first).toMatchObject({ status: 'completed', turn: 1 });
    const second = await client.callTool({
      name: 'desk',
      arguments: { message: 'Still?', conversationId: first.conversationId },
    });
    expect(turnOf(second)).toMatchObject({ conversationId: first.conversationId, turn: 2, status: 'completed' });
  }, 60_000);

  it('answers an approval by elicitation, and a cancel cancels the turn', async () => {
    const { client } = await start({ elicitation: {} });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { approved: true } }));
    const refund = await client.callTool({ name: 'refund', arguments: { message: 'Refund 90 EUR' } });
    expect(turnOf(refund)).toMatchObject({ status: 'completed', text: 'Refund: refunded 90 EUR for order 42' });
    const controller = new AbortController();
    let progressed = 0;
    const slow = client.callTool(
      { name: 'slow', arguments: { message: 'z'.repeat(400) } },
      { signal: controller.signal, onprogress: () => progressed++ },
    );
    await new Promise((r) => setTimeout(r, 300));
    controller.abort();
    await expect(slow).rejects.toThrow();
    expect(progressed).toBe(0); // a plain answer streams text only: no progress lines
    // The slow answer takes ~10 s; the stored record says cancelled well before.
    await vi.waitUntil(
      async () => (await records()).some((r) => r.name === 'slow' && r.current?.status === 'cancelled'),
      {
        timeout: 4000,
        interval: 100,
      },
    );
  }, 60_000);

  it('a process killed mid-turn: the next process resumes the cut turn, then takes the new message', async () => {
    const first = await start();
    const opened = turnOf(await first.client.callTool({ name: 'slow', arguments: { message: 'hello' } }));
    const call = first.client.callTool({
      name: 'slow',
      arguments: { message: 'w'.repeat(200), conversationId: opened.conversationId },
    });
    call.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 600));
    process.kill(first.transport.pid ?? 0, 'SIGKILL');
    await expect(call).rejects.toThrow();
    const second = await start();
    const lines: string[] = [];
    const next = await second.client.callTool(
      { name: 'slow', arguments: { message: 'are you back?', conversationId: opened.conversationId } },
      { onprogress: (p) => lines.push(p.message ?? '') },
    );
    expect(turnOf(next)).toMatchObject({ status: 'completed', turn: 3, text: 'You said: are you back?' });
    expect(lines).toContain('turn 2 resumed from the store');
  }, 60_000);
});
