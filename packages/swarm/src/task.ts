import { checkMessages, ConfigurationError, type ContentBlock, type Message, type MultiAgentTask } from '@skein/core';

/**
 * The task as the run's input history: text or content blocks become one user message. Checked here,
 * once: the members are handed the conversation without checking it again.
 */
export function taskMessages(task: MultiAgentTask): Message[] {
  const messages = unchecked(task);
  checkMessages(messages, 'The swarm task: message');
  return messages;
}

function unchecked(task: MultiAgentTask): Message[] {
  if (typeof task === 'string') return [{ role: 'user', content: [{ text: task }] }];
  if (!Array.isArray(task) || task.length === 0) {
    throw new ConfigurationError(
      'A Swarm task must be a non-empty string, an array of content blocks, or an array of messages.',
    );
  }
  const first = task[0] as object;
  if ('role' in first && 'content' in first)
    return (task as Message[]).map((m) => ({ role: m.role, content: [...m.content] }));
  return [{ role: 'user', content: [...(task as ContentBlock[])] }];
}
