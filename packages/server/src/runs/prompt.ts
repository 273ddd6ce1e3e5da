/** A turn's prompt: from the request body to what the record keeps, and to core's `Prompt`. */
import type { ContentBlock, InterruptResponseBlock, JsonObject, JsonValue, Prompt } from '@skein/core';
import type { InputBlock } from '../http/schemas.js';
import type { TurnPrompt } from '../store/conversation-record.js';
import { publicAnswers } from './interrupt-ids.js';

/** Core's prompt for a turn: text, content blocks (bytes decoded), or `interruptResponse` blocks. */
export function promptOfTurn(prompt: TurnPrompt): Prompt {
  if (prompt.kind === 'answers') {
    return Object.entries(prompt.answers).map(
      ([interruptId, response]): InterruptResponseBlock => ({ interruptResponse: { interruptId, response } }),
    );
  }
  if (typeof prompt.message === 'string') return prompt.message;
  return prompt.message.map((block) => toContentBlock(block as unknown as InputBlock));
}

function toContentBlock(block: InputBlock): ContentBlock {
  if ('text' in block) return { text: block.text };
  if ('image' in block) {
    const { format, source } = block.image;
    return { image: { format, source: { bytes: Buffer.from(source.bytes, 'base64') } } } as ContentBlock;
  }
  const { format, name, source } = block.document;
  return { document: { format, name, source: { bytes: Buffer.from(source.bytes, 'base64') } } } as ContentBlock;
}

/** How many characters of text a message holds (what `limits.maxMessageChars` counts). */
export function messageChars(message: string | readonly InputBlock[]): number {
  if (typeof message === 'string') return message.length;
  let n = 0;
  for (const block of message) if ('text' in block) n += block.text.length;
  return n;
}

/** A prompt's whole text, as a finished turn keeps it: the message's text (attachments named), or a note for answers. */
export function promptText(prompt: TurnPrompt): string {
  if (prompt.kind === 'answers') return `(answers: ${Object.keys(publicAnswers(prompt)).join(', ')})`;
  if (typeof prompt.message === 'string') return prompt.message;
  return prompt.message
    .map((b) => (typeof (b as JsonObject)['text'] === 'string' ? String((b as JsonObject)['text']) : '[attachment]'))
    .join(' ');
}

/** A line that names a prompt in lists and titles. */
export function promptLabel(prompt: TurnPrompt): string {
  return promptText(prompt).slice(0, 200);
}

/** The record's form of a message. */
export function messagePrompt(message: string | readonly InputBlock[]): TurnPrompt {
  return { kind: 'message', message: typeof message === 'string' ? message : (message as unknown as JsonObject[]) };
}

/** The record's form of answers. */
export function answersPrompt(answers: Record<string, JsonValue>, answered?: string): TurnPrompt {
  return answered === undefined ? { kind: 'answers', answers } : { kind: 'answers', answers, answered };
}
