/**
 * µs per agent-loop cycle (one model turn asking for one trivial tool, the tool, the results message)
 * with the scripted model, next to a hand-written minimal loop doing the same work on the same
 * stream, at 10, 100 and 1,000 turns of prior history. The ratio is skein's overhead.
 *
 * Then growth: one invocation of 1,000 and of 4,000 cycles from an empty history, time and retained
 * heap, skein and the floor side by side. Linear is ~4x; a per-cycle copy of the history would be
 * ~16x. The run fails (exit 1) when skein's time ratio reaches 8x or its memory ratio 10x (this
 * check was a fast-tier test, where a busy machine made it flaky).
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { z } from 'zod';
import { Agent, NullConversationManager, tool, type Message, type ModelStreamEvent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { table, usPerOp } from './measure.js';

const CYCLES = 200;
const inputSchema = z.object({ n: z.number() });
const callback = ({ n }: { n: number }): string => String(n + 1);
const add = tool({ name: 'add', description: 'adds one', inputSchema, callback });

function script(): ScriptedModel {
  const turns = [
    ...Array.from({ length: CYCLES }, (_, i) => ({ toolUses: [{ name: 'add', input: { n: i } }] })),
    'done',
  ];
  return new ScriptedModel(turns, { record: false });
}

function history(turns: number): Message[] {
  return Array.from({ length: turns }, (_, i) => [
    { role: 'user' as const, content: [{ text: `question ${i}` }] },
    { role: 'assistant' as const, content: [{ text: `answer ${i}` }] },
  ]).flat();
}

/** The floor: consume the stream, assemble the message, parse and validate input, run the tool, append. */
async function minimalLoop(model: ScriptedModel, messages: Message[]): Promise<void> {
  messages.push({ role: 'user', content: [{ text: 'go' }] });
  for (;;) {
    const content: Message['content'] = [];
    let text = '';
    let tool: { id: string; name: string; input: string } | undefined;
    let stop = '';
    for await (const e of model.stream({ messages }) as AsyncIterable<ModelStreamEvent>) {
      if ('contentBlockDelta' in e) {
        const d = e.contentBlockDelta.delta;
        if ('text' in d) text += d.text;
        else if ('toolUse' in d && tool) tool.input += d.toolUse.input;
      } else if ('contentBlockStart' in e)
        tool = {
          id: e.contentBlockStart.start.toolUse.toolUseId,
          name: e.contentBlockStart.start.toolUse.name,
          input: '',
        };
      else if ('messageStop' in e) stop = e.messageStop.stopReason;
    }
    if (text) content.push({ text });
    if (tool)
      content.push({
        toolUse: { toolUseId: tool.id, name: tool.name, input: JSON.parse(tool.input) as { n: number } },
      });
    messages.push({ role: 'assistant', content });
    if (stop !== 'tool_use' || !tool) return;
    const parsed = inputSchema.parse(JSON.parse(tool.input));
    messages.push({
      role: 'user',
      content: [{ toolResult: { toolUseId: tool.id, status: 'success', content: [{ text: callback(parsed) }] } }],
    });
  }
}

const rows: (string | number)[][] = [['history turns', 'skein µs/cycle', 'floor µs/cycle', 'ratio']];
for (const turns of [10, 100, 1000]) {
  const skein =
    (await usPerOp(async () => {
      const agent = new Agent({
        model: script(),
        tools: [add],
        messages: history(turns),
        conversationManager: new NullConversationManager(),
      });
      await agent.invoke('go');
    }, 10)) /
    (CYCLES + 1);
  const floor = (await usPerOp(() => minimalLoop(script(), history(turns)), 10)) / (CYCLES + 1);
  rows.push([turns, skein, floor, skein / floor]);
}
table(rows);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** What a growth run made, kept reachable while its retained heap is measured. */
let held: unknown;

/** One invocation of `cycles` cycles from an empty history: ms, and heap still held once it is done. */
async function growth(cycles: number, floor: boolean): Promise<{ ms: number; bytes: number }> {
  const turns = Array.from({ length: cycles - 1 }, (_, i) => ({ toolUses: [{ name: 'add', input: { n: i } }] }));
  const model = new ScriptedModel([...turns, 'done'], { record: false });
  const messages: Message[] = [];
  const agent = floor
    ? undefined
    : new Agent({ model, tools: [add], conversationManager: new NullConversationManager() });
  gc();
  const heap = process.memoryUsage().heapUsed;
  const start = performance.now();
  const cycleCount = agent
    ? (await agent.invoke('go')).metrics.cycleCount
    : (await minimalLoop(model, messages), messages.length >> 1);
  const ms = performance.now() - start;
  held = agent ?? messages;
  gc();
  gc();
  const bytes = process.memoryUsage().heapUsed - heap;
  held = undefined;
  if (cycleCount !== cycles || model.callCount !== cycles) throw new Error(`ran ${cycleCount} cycles, not ${cycles}`);
  return { ms, bytes };
}

/** Best time, largest retained heap (the smallest can be GC noise near zero) of `runs` runs. */
async function best(cycles: number, runs: number, floor: boolean): Promise<{ ms: number; bytes: number }> {
  const all = [];
  for (let i = 0; i < runs; i++) all.push(await growth(cycles, floor));
  return { ms: Math.min(...all.map((c) => c.ms)), bytes: Math.max(...all.map((c) => c.bytes)) };
}

await growth(1000, false);
await growth(1000, true);
const growthRows: (string | number)[][] = [['1,000 -> 4,000 cycles', 'time ratio', 'heap ratio']];
const ratios = { skein: { ms: 0, bytes: 0 }, floor: { ms: 0, bytes: 0 } };
for (const who of ['skein', 'floor'] as const) {
  const small = await best(1000, 3, who === 'floor');
  const large = await best(4000, 2, who === 'floor');
  ratios[who] = { ms: large.ms / small.ms, bytes: large.bytes / Math.max(small.bytes, 1) };
  growthRows.push([who, ratios[who].ms, ratios[who].bytes]);
}
table(growthRows);
if (ratios.skein.ms >= 8 || ratios.skein.bytes >= 10) {
  console.error('the loop grows faster than linearly (bounds: 8x time, 10x heap for 4x the cycles)');
  process.exitCode = 1;
}
