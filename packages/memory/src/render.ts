import type { JsonObject } from '@skein/core';
import type { Recalled } from './recall.js';

/** What one model call is told from memory. */
export interface MemoryContext {
  /** The working memory (absent: none configured). */
  working: JsonObject | undefined;
  /** The name of the tool that updates it. */
  toolName: string;
  /** Facts the observer kept. */
  facts: readonly string[];
  /** Recalled messages of earlier conversations, best first. */
  recalled: Recalled;
}

/** The heading that starts memory's part of the system prompt: always after the agent's own prompt. */
export const MEMORY_HEADING = '## Memory of this customer';

/**
 * Renders memory's part of the system prompt (`undefined` when there is nothing to say). It is
 * appended after the agent's own system prompt, which stays byte for byte the same, so the part of
 * the prompt a provider caches is not changed by memory.
 */
export function renderMemory(context: MemoryContext): string | undefined {
  const parts: string[] = [];
  if (context.working !== undefined)
    parts.push(
      `### Working memory\n${JSON.stringify(context.working)}\n(Keep it up to date with the ${context.toolName} tool: a JSON merge patch of the fields that changed.)`,
    );
  if (context.facts.length > 0) parts.push(`### Facts\n${context.facts.map((f) => `- ${f}`).join('\n')}`);
  if (context.recalled.length > 0) {
    const lines = context.recalled.map((group) =>
      group.map((m) => `- [${m.at.slice(0, 10)}, conversation ${m.thread}] ${m.role}: ${m.text}`).join('\n'),
    );
    parts.push(`### From earlier conversations (recalled; they may be out of date)\n${lines.join('\n\n')}`);
  }
  if (parts.length === 0) return undefined;
  return `${MEMORY_HEADING}\n${parts.join('\n\n')}`;
}

/** The system prompt with memory's part after the agent's own. */
export function withMemory(system: string | undefined, part: string | undefined): string | undefined {
  if (part === undefined) return system;
  return system === undefined || system === '' ? part : `${system}\n\n${part}`;
}
