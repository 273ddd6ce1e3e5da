import type { ContentBlock, MultiAgentTask, NodeResult, Prompt } from '@skein/core';

/**
 * A node's input: the task itself for a node reached without sources (an entry point), otherwise
 * the original task followed by the output of each source node, labelled by node id:
 *
 *   Original Task: <task>
 *
 *   Inputs from previous nodes:
 *
 *   From triage:
 *     - triage: <triage's final text>
 */
export function buildNodeInput(
  task: MultiAgentTask,
  sources: readonly string[],
  results: Readonly<Record<string, NodeResult>>,
): Prompt {
  if (sources.length === 0) return task;
  const blocks: ContentBlock[] = [];
  if (typeof task === 'string') blocks.push({ text: `Original Task: ${task}` });
  else blocks.push({ text: 'Original Task:' }, ...taskBlocks(task));
  blocks.push({ text: '\nInputs from previous nodes:' });
  for (const source of sources) {
    const result = results[source];
    blocks.push({ text: `\nFrom ${source}:` });
    blocks.push({ text: `  - ${source}: ${result?.text ?? ''}` });
  }
  return blocks;
}

/** The content blocks of a task given as blocks or messages (text, images and documents; tool traffic is dropped). */
function taskBlocks(task: Exclude<MultiAgentTask, string>): ContentBlock[] {
  const out: ContentBlock[] = [];
  for (const item of task) {
    if ('role' in item && 'content' in item) {
      for (const block of item.content) if ('text' in block || 'image' in block || 'document' in block) out.push(block);
    } else if (!('interruptResponse' in item)) out.push(item);
  }
  return out;
}
