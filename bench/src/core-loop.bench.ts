/**
 * µs per agent-loop cycle (one model turn asking for one trivial tool, the tool, the results message)
 * with the scripted model, next to a hand-written minimal loop doing the same work on the same
 * stream, at 10, 100 and 1,000 turns of prior history. The ratio is skein's overhead.
 */
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
