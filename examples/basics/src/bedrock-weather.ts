/**
 * An agent on Amazon Bedrock with one tool. Needs AWS credentials with access to the model:
 *   AWS_REGION=us-east-1 node --conditions=@skein/source --import tsx examples/basics/src/bedrock-weather.ts
 */
import { Agent, tool } from '@skein/core';
import { BedrockModel } from '@skein/model-bedrock';
import { z } from 'zod';

const weather = tool({
  name: 'weather',
  description: 'Current temperature of a city, in degrees Celsius.',
  inputSchema: z.object({ city: z.string() }),
  callback: ({ city }) => ({ city, celsius: 18 + (city.length % 7) }),
});

const model = new BedrockModel({ params: { maxTokens: 1024 }, cachePrompt: 'default' });
const agent = new Agent({ model, tools: [weather], systemPrompt: 'You answer weather questions in one sentence.' });

for await (const event of agent.stream('Is it warmer in Lisbon or in Oslo right now?')) {
  if (event.type === 'textDelta') process.stdout.write(event.data);
}
process.stdout.write('\n');
model.client.destroy();
