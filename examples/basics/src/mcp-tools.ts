/**
 * An agent whose tools come from an MCP server: @skein/mcp's test server, started as a child process
 * over stdio, so it runs offline. The model is scripted; replace it with `new BedrockModel()` or
 * `new AnthropicModel()` and the test server with a real one (`{ command: 'npx', args: [...] }`).
 * Run: node --conditions=@skein/source --import tsx examples/basics/src/mcp-tools.ts
 */
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { McpClient } from '@skein/mcp';
import { stdioTestServer } from '@skein/mcp/testing';

const client = new McpClient({
  name: 'test-server',
  transport: stdioTestServer(),
  prefix: 'demo',
  allowedTools: ['add', 'echo', 'fail'],
  timeoutMs: 10_000,
});

try {
  const tools = await client.listTools();
  console.log(`tools from ${client.name} (pid ${String(client.pid)}): ${tools.map((t) => t.name).join(', ')}`);
  const model = new ScriptedModel([
    {
      text: 'Let me add those.',
      toolUses: [
        { name: 'demo_add', input: { a: 19, b: 23 } },
        { name: 'demo_fail', input: { message: 'printer on fire' } },
      ],
    },
    { toolUses: [{ name: 'demo_add', input: { a: 'nineteen', b: 23 } }] },
    '19 + 23 = 42. (The printer is on fire, by the way.)',
  ]);
  const agent = new Agent({ model, tools, systemPrompt: 'Use your tools for arithmetic.' });
  const stream = agent.stream('What is 19 + 23?');
  for (let step = await stream.next(); ; step = await stream.next()) {
    if (step.done) {
      console.log(`\nanswer (${step.value.stopReason}): ${String(step.value)}`);
      break;
    }
    const event = step.value;
    if (event.type === 'toolStart') console.log(`-> ${event.toolUse.name} ${JSON.stringify(event.toolUse.input)}`);
    if (event.type === 'toolResult') {
      const shown = event.toolResult.content.map((c) =>
        'text' in c ? c.text : 'json' in c ? JSON.stringify(c.json) : Object.keys(c)[0],
      );
      console.log(`<- ${event.toolResult.status}: ${shown.join(' | ')}`);
    }
  }
} finally {
  await client.close(); // stops the server process
}
