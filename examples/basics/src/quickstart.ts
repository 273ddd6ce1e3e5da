/**
 * The quickstart: an agent with a calculator tool answers a question, streaming its text.
 * Run with `npm start` at the repository root.
 */
import { z } from 'zod';
import { Agent, tool } from '@skein/core';
import { pickModel } from './pick-model.js';

const calculator = tool({
  name: 'calculator',
  description: 'Evaluates an arithmetic expression with + - * / and parentheses, e.g. "25 * 48".',
  inputSchema: z.object({ expression: z.string().describe('The expression to evaluate') }),
  callback: ({ expression }) => {
    if (!/^[\d\s+\-*/().]+$/.test(expression))
      throw new Error(`Unsupported characters in ${JSON.stringify(expression)}`);
    const value = Function(`"use strict"; return (${expression});`)() as number;
    return `Result: ${value}`;
  },
});

const model = await pickModel([
  { text: 'Let me calculate that.', toolUses: [{ name: 'calculator', input: { expression: '25 * 48' } }] },
  '25 × 48 = **1200**.',
]);

const agent = new Agent({
  model,
  tools: [calculator],
  systemPrompt: 'You are a helpful assistant. Use the calculator for arithmetic.',
  callbackHandler: (event) => {
    if (event.type === 'textDelta') process.stdout.write(event.data);
    if (event.type === 'toolStart')
      process.stdout.write(`\n[tool] ${event.toolUse.name} ${JSON.stringify(event.toolUse.input)}\n`);
    if (event.type === 'toolResult')
      process.stdout.write(`[tool result] ${JSON.stringify(event.toolResult.content)}\n`);
  },
});

const result = await agent.invoke('What is 25 * 48?');
console.log(
  `\n\nstop reason: ${result.stopReason}; cycles: ${result.metrics.cycleCount}; tokens: ${result.metrics.usage.totalTokens}`,
);
console.log(`history: ${agent.messages.length} messages`);
