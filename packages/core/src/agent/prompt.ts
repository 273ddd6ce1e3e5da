import { ConfigurationError } from '../errors/configuration-errors.js';
import type { InterruptResponse, InterruptResponseBlock } from '../interrupt/interrupt.js';
import { contentBlockProblem } from '../types/content-check.js';
import type { ContentBlock, Message } from '../types/messages.js';

/**
 * What an agent can be invoked with: text, content blocks (one user message), whole messages, or
 * `interruptResponse` blocks answering the pending interrupts.
 */
export type Prompt = string | ContentBlock[] | Message[] | InterruptResponseBlock[];

function isMessage(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && 'role' in value && 'content' in value;
}

/** Checks a message's shape and says what is wrong with it. */
export function checkMessage(message: unknown, where: string): asserts message is Message {
  if (!isMessage(message))
    throw new ConfigurationError(`${where} is not a message: expected { role: 'user' | 'assistant', content: [...] }.`);
  if (message.role !== 'user' && message.role !== 'assistant') {
    throw new ConfigurationError(
      `${where} has role ${JSON.stringify(message.role)}; use 'user' or 'assistant' (the system prompt is an agent option).`,
    );
  }
  if (!Array.isArray(message.content))
    throw new ConfigurationError(`${where}.content must be an array of content blocks.`);
  checkBlocks(message.content, `${where}.content`);
}

/**
 * Checks each message's shape (`where[i]` in the error): a `ConfigurationError` saying what is wrong
 * with the first bad one. For callers that take messages from outside and hand them on unchecked later.
 */
export function checkMessages(messages: readonly unknown[], where: string): asserts messages is Message[] {
  messages.forEach((m, i) => checkMessage(m, `${where}[${i}]`));
}

function checkBlocks(blocks: readonly unknown[], where: string): void {
  blocks.forEach((block, i) => {
    const problem = contentBlockProblem(block);
    if (problem !== undefined) throw new ConfigurationError(`${where}[${i}] ${problem}.`);
  });
}

/** The messages a prompt appends to the history (none for `undefined`: continue from the history). */
export function promptToMessages(prompt: Prompt | undefined): Message[] {
  if (prompt === undefined) return [];
  if (typeof prompt === 'string') return [{ role: 'user', content: [{ text: prompt }] }];
  if (!Array.isArray(prompt)) {
    throw new ConfigurationError('A prompt must be a string, an array of content blocks, or an array of messages.');
  }
  if (prompt.length === 0) return [];
  if (isMessage(prompt[0])) {
    prompt.forEach((m, i) => checkMessage(m, `prompt[${i}]`));
    return prompt as Message[];
  }
  checkBlocks(prompt, 'prompt');
  return [{ role: 'user', content: prompt as ContentBlock[] }];
}

function isResponseBlock(value: unknown): value is InterruptResponseBlock {
  return typeof value === 'object' && value !== null && 'interruptResponse' in value;
}

/** The interrupt answers a prompt carries (`undefined`: it is a regular prompt); mixing both is an error. */
export function promptResponses(prompt: Prompt | undefined): InterruptResponse[] | undefined {
  if (!Array.isArray(prompt) || prompt.length === 0) return undefined;
  const blocks: unknown[] = isMessage(prompt[0])
    ? (prompt as Message[]).flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    : prompt;
  const answers = blocks.filter(isResponseBlock);
  if (answers.length === 0) return undefined;
  if (answers.length !== blocks.length) {
    throw new ConfigurationError(
      'A prompt that answers interrupts must hold only interruptResponse blocks; send the answers first, then the next prompt.',
    );
  }
  return answers.map(({ interruptResponse: r }, i) => {
    if (typeof r !== 'object' || r === null || typeof r.interruptId !== 'string' || r.interruptId === '') {
      throw new ConfigurationError(
        `prompt[${i}].interruptResponse needs { interruptId: string, response }; interruptId comes from result.interrupts[n].id.`,
      );
    }
    if (r.response === undefined)
      throw new ConfigurationError(
        `prompt[${i}].interruptResponse.response is missing; answer with a JSON value, e.g. { approved: true }.`,
      );
    return r;
  });
}
