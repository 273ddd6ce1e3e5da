import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, type AgentTool, type ToolResult } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { McpClient, McpConnectionError } from './index.js';
import { startHttpTestServer, type HttpTestServer } from './testing/index.js';

let server: HttpTestServer;
const clients: McpClient[] = [];
beforeEach(async () => {
  server = await startHttpTestServer();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server.close();
});

function open(options: Partial<ConstructorParameters<typeof McpClient>[0]> = {}): McpClient {
  const client = new McpClient({ transport: { url: server.url }, ...options });
  clients.push(client);
  return client;
}
const agentWith = (tools: AgentTool[]): Agent =>
  new Agent({ model: new ScriptedModel([]), tools, recordDirectToolCall: false });
const text = (result: ToolResult | undefined): string =>
  (result?.content ?? []).map((c) => ('text' in c ? c.text : '')).join('\n');

describe('McpClient over streamable HTTP', () => {
  it('connects, lists and calls tools, sending the configured headers with every request', async () => {
    const client = open({
      transport: { url: server.url, headers: { authorization: 'Bearer t0ken', 'x-team': 'skein' } },
    });
    expect(client.name).toMatch(/^127\.0\.0\.1:\d+$/);
    const agent = agentWith(await client.listTools());
    expect(client.pid).toBeUndefined();
    expect((await agent.tool.add?.({ a: 20, b: 22 }))?.content).toEqual([
      { text: '20 + 22 = 42' },
      { json: { sum: 42 } },
    ]);
    expect(await agent.tool.fail?.({ message: 'nope' })).toMatchObject({
      status: 'error',
      content: [{ text: 'nope' }],
    });
    const posts = server.requests.filter((h) => h['content-type']?.includes('json'));
    expect(posts.length).toBeGreaterThanOrEqual(3);
    for (const headers of posts) {
      expect(headers['authorization']).toBe('Bearer t0ken');
      expect(headers['x-team']).toBe('skein');
    }
  });

  it('times out a hanging call and cancels on abort, keeping the session usable', async () => {
    const agent = agentWith(await open({ timeoutMs: 300 }).listTools());
    expect(text(await agent.tool.hang?.({}))).toMatch(/did not answer within 300 ms/);
    const controller = new AbortController();
    const call = agent.tool.slow?.({ ms: 30_000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect((await call)?.status).toBe('error');
    let cancelled = 0;
    for (let i = 0; i < 100 && cancelled === 0; i++) {
      const stats = (await agent.tool.stats?.({}))?.content.find((c) => 'json' in c) as { json: { cancelled: number } };
      cancelled = stats.json.cancelled;
      if (cancelled === 0) await new Promise((r) => setTimeout(r, 20));
    }
    expect(cancelled).toBe(1);
    expect(text(await agent.tool.echo?.({ text: 'fine' }))).toBe('fine');
  });

  it('hears a tool list change over the session stream', async () => {
    let changes = 0;
    const client = open({ onToolsChanged: () => changes++ });
    const agent = agentWith(await client.listTools());
    await agent.tool.change_tools?.({ remove: 'add' });
    for (let i = 0; i < 200 && changes === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(changes).toBeGreaterThan(0);
    expect(text(await agent.tool.add?.({ a: 1, b: 2 }))).toMatch(/^Tool add is no longer offered by the MCP server/);
  });

  it('a server that is not there: a clear McpConnectionError', async () => {
    await server.close();
    const client = open();
    await expect(client.connect()).rejects.toThrow(McpConnectionError);
    await expect(client.listTools()).rejects.toThrow(
      /^Could not connect to MCP server "127\.0\.0\.1:\d+" \(http:\/\/127\.0\.0\.1:\d+\/mcp\): .*Check the URL/,
    );
    server = await startHttpTestServer();
  });

  it('a server that drops the connection mid-call: an error result, and the agent keeps working', async () => {
    const agent = agentWith(await open({ timeoutMs: 20_000 }).listTools());
    const call = agent.tool.slow?.({ ms: 30_000 });
    setTimeout(() => server.dropConnections(), 200);
    const result = await call;
    expect(result?.status).toBe('error');
    expect(text(result)).toMatch(
      /^The MCP server "127\.0\.0\.1:\d+" \(.*\) dropped the connection while tool slow was running, before answering; the call may or may not have taken effect\.$/,
    );
    expect(text(await agent.tool.echo?.({ text: 'after' }))).toBe('after');
  });

  it('a server that went away: an error result, then a new session once it is back', async () => {
    const agent = agentWith(await open().listTools());
    const port = Number(new URL(server.url).port);
    await server.close();
    const down = await agent.tool.echo?.({ text: 'x' });
    expect(down?.status).toBe('error');
    expect(text(down)).toMatch(
      /^The MCP server "127\.0\.0\.1:\d+" .* went away while tool echo was running\. The next call will start a new connection/,
    );
    server = await startHttpTestServer({ port });
    expect(text(await agent.tool.echo?.({ text: 'back' }))).toBe('back');
  });
});
