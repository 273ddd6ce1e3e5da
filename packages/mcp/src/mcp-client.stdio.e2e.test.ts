import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent, ConfigurationError, type AgentTool, type ToolResult } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { McpClient, McpConnectionError } from './index.js';
import { stdioTestServer, waitForExit } from './testing/index.js';

const clients: McpClient[] = [];
function open(options: Partial<ConstructorParameters<typeof McpClient>[0]> = {}): McpClient {
  const client = new McpClient({ transport: stdioTestServer(), ...options });
  clients.push(client);
  return client;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-mcp-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs tools directly through an agent (validation, hooks and the loop's tool runner included). */
function agentWith(tools: AgentTool[]): Agent {
  return new Agent({ model: new ScriptedModel([]), tools, recordDirectToolCall: false });
}

async function stats(agent: Agent, name = 'stats'): Promise<{ calls: number; cancelled: number; pid: number }> {
  const result = await agent.tool[name]?.({});
  const json = result?.content.find((c) => 'json' in c);
  return (json as { json: { calls: number; cancelled: number; pid: number } }).json;
}

const text = (result: ToolResult | undefined): string =>
  (result?.content ?? []).map((c) => ('text' in c ? c.text : '')).join('\n');

describe('McpClient over stdio', () => {
  it("lists the tools as skein tools whose input schemas are the server's JSON Schemas as they are", async () => {
    const client = open();
    expect(client.isConnected).toBe(false);
    const tools = await client.listTools();
    expect(client.isConnected).toBe(true);
    expect(tools.map((t) => t.name)).toEqual([
      'echo',
      'add',
      'picture',
      'documents',
      'fail',
      'slow',
      'hang',
      'crash',
      'stats',
      'change_tools',
    ]);
    const add = tools.find((t) => t.name === 'add');
    expect(add?.spec.description).toBe('Adds two numbers.');
    expect(add?.spec.inputSchema.json).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
  });

  it('maps text, structured content, images and embedded resources, and isError', async () => {
    const agent = agentWith(await open().listTools());
    expect(await agent.tool.echo?.({ text: 'hi' })).toMatchObject({ status: 'success', content: [{ text: 'hi' }] });
    expect((await agent.tool.add?.({ a: 2, b: 3 }))?.content).toEqual([{ text: '2 + 3 = 5' }, { json: { sum: 5 } }]);
    const picture = await agent.tool.picture?.({});
    expect(picture?.content[0]).toEqual({ text: 'A 1x1 pixel:' });
    const image = picture?.content[1] as { image: { format: string; source: { bytes: Uint8Array } } };
    expect(image.image.format).toBe('png');
    expect([...image.image.source.bytes.subarray(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG');
    const docs = await agent.tool.documents?.({});
    expect(docs?.content[0]).toEqual({ text: '# Notes\nhello' });
    const pdf = docs?.content[1] as { document: { format: string; name: string; source: { bytes: Uint8Array } } };
    expect(pdf.document).toMatchObject({ format: 'pdf', name: 'q3' });
    expect(Buffer.from(pdf.document.source.bytes).toString()).toBe('%PDF-1.4 test');
    expect(await agent.tool.fail?.({ message: 'disk full' })).toMatchObject({
      status: 'error',
      content: [{ text: 'disk full' }],
    });
  });

  it('validates input against the JSON Schema before calling: invalid input never reaches the server', async () => {
    const agent = agentWith(await open().listTools());
    const before = await stats(agent);
    const bad = await agent.tool.add?.({ a: 'two', b: 3 });
    expect(bad?.status).toBe('error');
    expect(text(bad)).toMatch(/^Invalid input for tool add: .*must be number.*Call it again/);
    expect(text(await agent.tool.echo?.({}))).toMatch(/must have required property 'text'/);
    expect((await stats(agent)).calls).toBe(before.calls);
  });

  it('filters with allowedTools and a predicate, and prefixes names so two servers can share an agent', async () => {
    const math = open({ prefix: 'math', allowedTools: ['add', 'stats'] });
    const text2 = open({ prefix: 'text', toolFilter: (t) => t.name.startsWith('e') });
    const tools = [...(await math.listTools()), ...(await text2.listTools())];
    expect(tools.map((t) => t.name)).toEqual(['math_add', 'math_stats', 'text_echo']);
    const agent = agentWith(tools);
    expect(text(await agent.tool.math_add?.({ a: 1, b: 1 }))).toContain('1 + 1 = 2');
    expect(text(await agent.tool.text_echo?.({ text: 'x' }))).toBe('x');
    // The selection can be given per listing too, overriding the client's.
    expect((await math.listTools({ allowedTools: ['echo'], prefix: 'm2' })).map((t) => t.name)).toEqual(['m2_echo']);
    await expect(math.listTools({ allowedTools: ['ad'] })).rejects.toThrow(ConfigurationError);
    await expect(math.listTools({ allowedTools: ['ad'] })).rejects.toThrow(
      /does not offer: ad\. .*It offers: echo, add/,
    );
  });

  it('gives the model an error result when a call outlives timeoutMs, and keeps working', async () => {
    const agent = agentWith(await open({ timeoutMs: 300 }).listTools());
    const hung = await agent.tool.hang?.({});
    expect(hung?.status).toBe('error');
    expect(text(hung)).toMatch(/Tool hang did not answer within 300 ms \(MCP server "node"/);
    expect(text(await agent.tool.echo?.({ text: 'still here' }))).toBe('still here');
  });

  it("cancels the MCP request when the agent's signal aborts", async () => {
    const agent = agentWith(await open().listTools());
    const controller = new AbortController();
    const call = agent.tool.slow?.({ ms: 30_000 }, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 200));
    controller.abort();
    expect((await call)?.status).toBe('error');
    let cancelled = 0;
    for (let i = 0; i < 100 && cancelled === 0; i++) {
      cancelled = (await stats(agent)).cancelled;
      if (cancelled === 0) await new Promise((r) => setTimeout(r, 20));
    }
    expect(cancelled).toBe(1);
  });

  it('stops the server process on close; tools of a closed client answer with an error result', async () => {
    const client = open();
    const agent = agentWith(await client.listTools());
    const pid = client.pid as number;
    expect(pid).toBeGreaterThan(0);
    expect((await stats(agent)).pid).toBe(pid);
    await client.close();
    expect(client.isConnected).toBe(false);
    expect(await waitForExit(pid)).toBe(true);
    const after = await agent.tool.echo?.({ text: 'x' });
    expect(after?.status).toBe('error');
    expect(text(after)).toMatch(/the client of the MCP server "node" .* was closed/);
  });
});

describe('McpClient over stdio: closing', () => {
  it('closing during a call ends the call with an error result and stops the process', async () => {
    const client = open();
    const agent = agentWith(await client.listTools());
    const pid = client.pid as number;
    const call = agent.tool.slow?.({ ms: 30_000 });
    await new Promise((r) => setTimeout(r, 200));
    await client.close();
    const result = await call;
    expect(result?.status).toBe('error');
    expect(text(result)).toMatch(
      /^Tool slow was stopped: the client of the MCP server "node" .* was closed during the call\.$/,
    );
    expect(await waitForExit(pid)).toBe(true);
  });
});

describe('McpClient over stdio: faults', () => {
  it('a server that fails to start: a clear McpConnectionError with its stderr, no process left', async () => {
    const pidFile = join(dir, 'fail-start.pid');
    const client = open({ transport: { ...stdioTestServer({ failStart: true, pidFile }), stderr: 'ignore' } });
    const error = await client.connect().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(McpConnectionError.is(error)).toBe(true);
    expect((error as McpConnectionError).message).toMatch(
      /^Could not connect to MCP server "node" \(.*stdio-server\.ts\): .*refusing to start/,
    );
    expect((error as McpConnectionError).stderr).toBe('test server: missing configuration, refusing to start');
    expect(client.isConnected).toBe(false);
    expect(await waitForExit(Number(await readFile(pidFile, 'utf8')))).toBe(true);
  });

  it('a command that does not exist: McpConnectionError naming it', async () => {
    const client = open({ transport: { command: 'skein-no-such-mcp-server', args: ['--x'] } });
    await expect(client.listTools()).rejects.toThrow(
      /Could not connect to MCP server "skein-no-such-mcp-server" \(skein-no-such-mcp-server --x\): .*ENOENT/,
    );
  });

  it('a server that never answers and ignores end of input and SIGTERM: McpConnectionError after connectTimeoutMs, process killed', async () => {
    const pidFile = join(dir, 'stubborn.pid');
    const stubborn = `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); process.on('SIGTERM', () => {}); setInterval(() => {}, 1e6);`;
    const client = open({ transport: { command: process.execPath, args: ['-e', stubborn] }, connectTimeoutMs: 1500 });
    const error = await client.connect().then(
      () => undefined,
      (e: unknown) => e as McpConnectionError,
    );
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error?.message).toMatch(/^Could not connect to MCP server "node" .*: Request timed out\. Check the command/);
    expect(await waitForExit(Number(await readFile(pidFile, 'utf8')))).toBe(true);
  });

  it('a server that dies mid-call: an error result with its last words, no process left, restarted on the next call', async () => {
    const client = open({ transport: { ...stdioTestServer(), stderr: 'ignore' } });
    const agent = agentWith(await client.listTools());
    const first = client.pid as number;
    const crashed = await agent.tool.crash?.({});
    expect(crashed?.status).toBe('error');
    expect(text(crashed)).toMatch(
      /went away while tool crash was running\. Its stderr ended with: "test server: crashing on purpose"\. The next call will start a new connection/,
    );
    expect(await waitForExit(first)).toBe(true);
    expect(text(await agent.tool.echo?.({ text: 'back' }))).toBe('back');
    const second = client.pid as number;
    expect(second).not.toBe(first);
    expect((await stats(agent)).pid).toBe(second);
  });

  it('with reconnect: false, calls after the server died answer with an error result', async () => {
    const client = open({ transport: { ...stdioTestServer(), stderr: 'ignore' }, reconnect: false });
    const agent = agentWith(await client.listTools());
    await agent.tool.crash?.({});
    const after = await agent.tool.echo?.({ text: 'x' });
    expect(after?.status).toBe('error');
    expect(text(after)).toMatch(/went away and reconnecting is off/);
  });

  it('a tool whose input schema is not valid JSON Schema is skipped with the reason; the others work', async () => {
    const client = open({ transport: stdioTestServer({ badSchema: true }) });
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo']);
    expect(client.skippedTools).toEqual([
      {
        name: 'bad_schema',
        reason: expect.stringMatching(/^its inputSchema is not valid JSON Schema: type must be JSONType/) as string,
      },
      { name: 'bad_shape', reason: 'its inputSchema is not a JSON Schema object with type "object", as MCP requires' },
    ]);
    expect(text(await agentWith(tools).tool.echo?.({ text: 'ok' }))).toBe('ok');
    await expect(client.listTools({ allowedTools: ['bad_schema'] })).rejects.toThrow(
      /does not offer: bad_schema\. bad_schema: its inputSchema is not valid JSON Schema/,
    );
  });

  it('a tool list change: a removed tool answers with an error result, a relisting picks up new tools', async () => {
    let changes = 0;
    const client = open({ onToolsChanged: () => changes++ });
    const agent = agentWith(await client.listTools());
    expect(text(await agent.tool.change_tools?.({ remove: 'echo', add: 'twice' }))).toBe('changed');
    for (let i = 0; i < 200 && changes === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(changes).toBeGreaterThan(0);
    const removed = await agent.tool.echo?.({ text: 'x' });
    expect(removed?.status).toBe('error');
    expect(text(removed)).toMatch(
      /^Tool echo is no longer offered by the MCP server "node" \(.*\) \(its tool list changed\)\. Do not call it again\.$/,
    );
    const relisted = await client.listTools();
    expect(relisted.map((t) => t.name)).toContain('twice');
    expect(relisted.map((t) => t.name)).not.toContain('echo');
    expect(text(await agentWith(relisted).tool.twice?.({ n: 4 }))).toBe('twice:4');
  });

  it('a tool list change that changes a schema: input is checked against the new one', async () => {
    let changes = 0;
    const client = open({ onToolsChanged: () => changes++ });
    const agent = agentWith(await client.listTools());
    expect(text(await agent.tool.echo?.({ text: 'before' }))).toBe('before');
    await agent.tool.change_tools?.({ louder: true });
    for (let i = 0; i < 200 && changes === 0; i++) await new Promise((r) => setTimeout(r, 10));
    const after = await agent.tool.echo?.({ text: 'after' });
    expect(after?.status).toBe('error');
    expect(text(after)).toMatch(/^Invalid input for tool echo: data must have required property 'loud'/);
    expect(text(await agent.tool.echo?.({ text: 'after', loud: true }))).toBe('after');
  });
});
