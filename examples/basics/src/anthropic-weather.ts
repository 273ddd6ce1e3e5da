/**
 * An agent on Claude with one tool, through the Anthropic API. Needs ANTHROPIC_API_KEY:
 *   ANTHROPIC_API_KEY=... node --conditions=@skein/source --import tsx examples/basics/src/anthropic-weather.ts
 */
import { Agent, tool } from '@skein/core';
import { AnthropicModel } from '@skein/model-anthropic';
import { z } from 'zod';

const weather = tool({
  name: 'weather',
  description: 'Current temperature of a city, in degrees Celsius.',
  inputSchema: z.object({ city: z.string() }),
  callback: ({ city }) => ({ city, celsius: 18 + (city.length % 7) }),
});

const model = new AnthropicModel({ maxTokens: 1024 });
const agent = new Agent({ model, tools: [weather], systemPrompt: 'You answer weather questions in one sentence.' });

for await (const event of agent.stream('Is it warmer in Lisbon or in Oslo right now?')) {
  if (event.type === 'textDelta') process.stdout.write(event.data);
}
process.stdout.write('\n');
