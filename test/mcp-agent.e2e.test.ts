import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Agent,
  BeforeToolCallEvent,
  toolResultsOf,
  type Message,
  type ModelRequest,
  type ToolResult,
} from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { McpClient } from '@skein/mcp';
import { startHttpTestServer, stdioTestServer, waitForExit, type HttpTestServer } from '@skein/mcp/testing';

// An agent loop (scripted model) calling tools of two MCP servers at once: a stdio child process
// and a streamable HTTP server, told apart by name prefixes.

let http: HttpTestServer;
let local: McpClient;
let remote: McpClient;
beforeEach(async () => {
  http = await startHttpTestServer();
  local = new McpClient({
    name: 'local',
    transport: { ...stdioTestServer(), stderr: 'ignore' },
    prefix: 'local',
    timeoutMs: 2_000,
  });
  remote = new McpClient({
    name: 'remote',
    transport: { url: http.url },
    prefix: 'remote',
    allowedTools: ['add', 'echo', 'slow', 'stats'],
  });
});
afterEach(async () => {
  await Promise.all([local.close(), remote.close()]);
  await http.close();
});

const results = (messages: Message[]): ToolResult[] => messages.flatMap(toolResultsOf);
const texts = (r: ToolResult | undefined): string =>
  (r?.content ?? []).map((c) => ('text' in c ? c.text : JSON.stringify(c))).join(' | ');

describe('an agent using MCP tools', () => {
  it('sends the MCP schemas to the model as they are, runs the calls, and feeds the results back', async () => {
    let seen: ModelRequest | undefined;
    const model = new ScriptedModel([
      (request) => {
        seen = request;
        return {
          toolUses: [
            { name: 'remote_add', input: { a: 2, b: 40 } },
            { name: 'local_echo', input: { text: 'hello' } },
            { name: 'local_picture', input: {} },
          ],
        };
      },
      'The sum is 42.',
    ]);
    const agent = new Agent({ model, tools: [...(await local.listTools()), ...(await remote.listTools())] });
    const result = await agent.invoke('Add 2 and 40, echo hello, show a picture.');
    expect(String(result)).toBe('The sum is 42.');
    expect(seen?.toolSpecs?.map((s) => s.name)).toEqual([
      'local_echo',
      'local_add',
      'local_picture',
      'local_documents',
      'local_fail',
      'local_slow',
      'local_hang',
      'local_crash',
      'local_stats',
      'local_change_tools',
      'remote_echo',
      'remote_add',
      'remote_slow',
      'remote_stats',
    ]);
    expect(seen?.toolSpecs?.find((s) => s.name === 'remote_add')?.inputSchema.json).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    const [add, echo, picture] = results(agent.messages);
    expect(add).toMatchObject({ status: 'success', content: [{ text: '2 + 40 = 42' }, { json: { sum: 42 } }] });
    expect(echo).toMatchObject({ status: 'success', content: [{ text: 'hello' }] });
    expect(picture?.content[1]).toMatchObject({ image: { format: 'png' } });
  });

  it('keeps going through a tool error, invalid input, a timeout and a crashed server', async () => {
    const model = new ScriptedModel([
      {
        toolUses: [
          { name: 'local_fail', input: { message: 'quota exceeded' } },
          { name: 'remote_add', input: { a: 'x' } },
        ],
      },
      { toolUses: [{ name: 'local_hang', input: {} }] },
      { toolUses: [{ name: 'local_crash', input: {} }] },
      { toolUses: [{ name: 'local_echo', input: { text: 'recovered' } }] },
      'Done despite everything.',
    ]);
    const agent = new Agent({ model, tools: [...(await local.listTools()), ...(await remote.listTools())] });
    const firstPid = local.pid as number;
    const result = await agent.invoke('Try everything.');
    expect(result.stopReason).toBe('end_turn');
    expect(String(result)).toBe('Done despite everything.');
    const [fail, invalid, hang, crash, echo] = results(agent.messages);
    expect(fail).toMatchObject({ status: 'error', content: [{ text: 'quota exceeded' }] });
    expect(invalid?.status).toBe('error');
    expect(texts(invalid)).toMatch(/^Invalid input for tool remote_add: /);
    expect(texts(hang)).toMatch(/did not answer within 2000 ms/);
    expect(texts(crash)).toMatch(/went away while tool local_crash was running/);
    expect(echo).toMatchObject({ status: 'success', content: [{ text: 'recovered' }] });
    expect(await waitForExit(firstPid)).toBe(true);
    expect(local.pid).not.toBe(firstPid);
  });

  it('cancelling the agent cancels the MCP request on the server', async () => {
    const model = new ScriptedModel([
      { toolUses: [{ name: 'remote_slow', input: { ms: 30_000 } }] },
      { toolUses: [{ name: 'remote_stats', input: {} }] },
      'ok',
    ]);
    const agent = new Agent({ model, tools: await remote.listTools() });
    const controller = new AbortController();
    agent.hooks.addCallback(BeforeToolCallEvent, () => {
      setTimeout(() => controller.abort(), 150);
    });
    const result = await agent.invoke('Wait a long time.', { signal: controller.signal });
    expect(result.stopReason).toBe('cancelled');
    const after = new Agent({
      model: new ScriptedModel([]),
      tools: await remote.listTools(),
      recordDirectToolCall: false,
    });
    let cancelled = 0;
    for (let i = 0; i < 100 && cancelled === 0; i++) {
      const stats = (await after.tool.remote_stats?.({}))?.content.find((c) => 'json' in c) as {
        json: { cancelled: number };
      };
      cancelled = stats.json.cancelled;
      if (cancelled === 0) await new Promise((r) => setTimeout(r, 20));
    }
    expect(cancelled).toBe(1);
  });
});
