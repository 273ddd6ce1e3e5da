import { Agent, InMemorySessionRepository, RepositorySessionManager } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { serve, type RunningServer } from '@skein/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient, serveMcp, type SkeinMcpServer } from '../index.js';
import { serveTargets } from '../test-support/serve-targets.js';

let mcp: SkeinMcpServer;
let running: RunningServer;
let client: McpClient;

beforeEach(async () => {
  const repository = new InMemorySessionRepository();
  mcp = serveMcp(serveTargets((id) => new RepositorySessionManager({ sessionId: id, repository })));
  running = await serve(mcp.app, { port: 0, handleSignals: false, log: null });
  client = new McpClient({ transport: { url: `${running.url}/mcp` }, name: 'desk-service', prefix: 'desk' });
});

afterEach(async () => {
  await client.close();
  await mcp.close();
  await running.stop();
});

describe("a skein agent using another skein service's agent as a tool over MCP", () => {
  it('calls the remote agent with McpClient, then continues its conversation by id', async () => {
    const tools = await client.listTools({ allowedTools: ['echo'] });
    expect(tools.map((t) => t.name)).toEqual(['desk_echo']);
    let remembered = '';
    const model = new ScriptedModel([
      { toolUses: [{ name: 'desk_echo', input: { message: 'Where is my parcel?' } }] },
      (request) => {
        const result = request.messages.at(-1)?.content.find((b) => 'toolResult' in b);
        const json = result && 'toolResult' in result ? result.toolResult.content.find((c) => 'json' in c) : undefined;
        remembered = (json && 'json' in json ? (json.json as { conversationId: string }) : { conversationId: '' })
          .conversationId;
        return { toolUses: [{ name: 'desk_echo', input: { message: 'And now?', conversationId: remembered } }] };
      },
      (request) => {
        const result = request.messages.at(-1)?.content.find((b) => 'toolResult' in b);
        const text = result && 'toolResult' in result ? result.toolResult.content.find((c) => 'text' in c) : undefined;
        return `The desk said: ${text && 'text' in text ? text.text : '?'}`;
      },
    ]);
    const agent = new Agent({ name: 'front', model, tools });
    const answer = await agent.invoke('Ask the desk twice');
    expect(String(answer)).toBe('The desk said: You said: And now?');
    expect(remembered).toMatch(/^mcp-/);
    const read = (await (
      await mcp.app.fetch(new Request(`http://x/v1/agents/echo/conversations/${remembered}`))
    ).json()) as {
      turns: unknown[];
    };
    expect(read.turns).toHaveLength(2);
  });
});
