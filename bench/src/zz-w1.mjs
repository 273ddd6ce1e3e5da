const { Agent, tool } = await import('@skein/core');
const { z } = await import('zod');
const USAGE = { metadata: { usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } } };
function scripted(respond) {
  return { modelId: 'f', async *stream(request) {
    const reply = respond(request);
    yield { messageStart: { role: 'assistant' } };
    if ('tool' in reply) {
      yield { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: reply.tool.id, name: reply.tool.name } } } };
      yield { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: JSON.stringify(reply.tool.input) } } } };
      yield { contentBlockStop: { contentBlockIndex: 0 } };
      yield { messageStop: { stopReason: 'tool_use' } };
    } else {
      yield { contentBlockDelta: { contentBlockIndex: 0, delta: { text: reply.text } } };
      yield { contentBlockStop: { contentBlockIndex: 0 } };
      yield { messageStop: { stopReason: 'end_turn' } };
    }
    yield USAGE;
  } };
}
const turns = 100;
let turn = 0;
const model = scripted(() => { const t = turn++ % (turns + 1); return t < turns ? { tool: { name: 'add', id: `t${t}`, input: { a: t, b: 1 } } } : { text: 'done' }; });
const add = tool({ name: 'add', description: 'adds', inputSchema: z.object({ a: z.number(), b: z.number() }), callback: ({ a, b }) => String(a + b) });
const agent = new Agent({ model, tools: [add], name: 'bench' });
const mode = process.argv[2] ?? 'invoke';
const run = mode === 'invoke' ? async () => { agent.messages = []; await agent.invoke('go'); } : async () => { agent.messages = []; const g = agent.stream('go'); while (!(await g.next()).done); };
const reps = Number(process.argv[3] ?? 200);
for (let i = 0; i < 30; i++) await run();
const c0 = process.cpuUsage(); const t = process.hrtime.bigint();
for (let i = 0; i < reps; i++) await run();
const us = Number(process.hrtime.bigint() - t) / 1e3 / reps / turns; const cu = process.cpuUsage(c0);
console.log(mode, us.toFixed(2), 'µs wall', ((cu.user + cu.system) / reps / turns).toFixed(2), 'µs cpu per cycle');
