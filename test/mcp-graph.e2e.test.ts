import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, toolResultsOf, type ToolResult } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { McpClient } from '@skein/mcp';
import { stdioTestServer, waitForExit } from '@skein/mcp/testing';

// A Graph whose nodes share one MCP client: one server process serves every node, each node sees
// only the tools it was given, nodes running in parallel call the server at the same time.

let client: McpClient;
beforeAll(async () => {
  client = new McpClient({ name: 'shared', transport: { ...stdioTestServer(), stderr: 'ignore' } });
  await client.connect();
});
afterAll(async () => {
  await client.close();
});

const firstResult = (agent: Agent): ToolResult | undefined => agent.messages.flatMap(toolResultsOf)[0];

describe('a Graph whose nodes share one McpClient', () => {
  it('runs nodes in parallel against one server process, each with its own selection of tools', async () => {
    const pid = client.pid as number;
    const planner = new Agent({
      name: 'planner',
      model: new ScriptedModel([{ toolUses: [{ name: 'echo', input: { text: 'plan: add and wait' } }] }, 'Plan made.']),
      tools: await client.listTools({ allowedTools: ['echo'] }),
    });
    const adder = new Agent({
      name: 'adder',
      model: new ScriptedModel([{ toolUses: [{ name: 'math_add', input: { a: 20, b: 22 } }] }, 'The sum is 42.']),
      tools: await client.listTools({ allowedTools: ['add'], prefix: 'math' }),
    });
    const waiter = new Agent({
      name: 'waiter',
      model: new ScriptedModel([{ toolUses: [{ name: 'slow', input: { ms: 200 } }] }, 'Waited.']),
      tools: await client.listTools({ toolFilter: (t) => t.name === 'slow' }),
    });
    const reporter = new Agent({
      name: 'reporter',
      model: new ScriptedModel([{ toolUses: [{ name: 'stats', input: {} }] }, 'Report written.']),
      tools: await client.listTools({ allowedTools: ['stats'] }),
    });
    const graph = new GraphBuilder()
      .setId('mcp-shared')
      .addNode(planner)
      .addNode(adder)
      .addNode(waiter)
      .addNode(reporter)
      .addEdge('planner', 'adder')
      .addEdge('planner', 'waiter')
      .addEdge(['adder', 'waiter'], 'reporter')
      .build();
    const result = await graph.invoke('Add 20 and 22, and wait a bit.');
    expect(result.status).toBe('completed');
    expect(result.executionOrder[0]).toBe('planner');
    expect(result.executionOrder.at(-1)).toBe('reporter');
    expect(result.results['reporter']?.text).toBe('Report written.');
    expect(firstResult(adder)).toMatchObject({
      status: 'success',
      content: [{ text: '20 + 22 = 42' }, { json: { sum: 42 } }],
    });
    expect(firstResult(waiter)).toMatchObject({ status: 'success', content: [{ text: 'waited 200 ms' }] });
    // One process served all four nodes: the reporter read the same pid and three calls before its own.
    const stats = firstResult(reporter)?.content.find((c) => 'json' in c) as { json: { pid: number; calls: number } };
    expect(stats.json).toMatchObject({ pid, calls: 3 });
    expect(client.pid).toBe(pid);
    expect(adder.tools.map((t) => t.name)).toEqual(['math_add']);
  });

  it('closing the shared client stops the one server process', async () => {
    const pid = client.pid as number;
    await client.close();
    expect(await waitForExit(pid)).toBe(true);
  });
});
