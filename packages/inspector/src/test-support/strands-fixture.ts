import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const write = async (file: string, value: unknown): Promise<void> => {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, JSON.stringify(value, null, 2));
};

const message = (role: string, text: string, id: number): unknown => ({
  message: { role, content: [{ text }] },
  message_id: id,
  redact_message: null,
  created_at: '2025-07-23T19:09:41.714508+00:00',
  updated_at: '2025-07-23T19:09:41.714510+00:00',
});

/**
 * A session as Strands Agents (Python) writes it: a graph's `multi_agent.json` with its fields at
 * the top (`status`, `completed_nodes`, `node_results`, `execution_order`, ...) and one node agent.
 */
export async function writeStrandsGraphSession(dir: string, sessionId = 'strands-graph'): Promise<void> {
  const root = join(dir, `session_${sessionId}`);
  const at = '2025-07-23T19:09:41.700101+00:00';
  await write(join(root, 'session.json'), {
    session_id: sessionId,
    session_type: 'MULTI_AGENT',
    created_at: at,
    updated_at: at,
  });
  const usage = { inputTokens: 12, outputTokens: 8, totalTokens: 20 };
  const result = (text: string, ms: number): unknown => ({
    status: 'completed',
    result: { type: 'agent_result', stop_reason: 'end_turn', message: { role: 'assistant', content: [{ text }] } },
    execution_time: ms,
    accumulated_usage: usage,
    execution_count: 1,
  });
  await write(join(root, 'multi_agents', 'multi_agent_research', 'multi_agent.json'), {
    type: 'graph',
    id: 'research',
    status: 'completed',
    completed_nodes: ['research', 'analysis'],
    failed_nodes: [],
    node_results: { research: result('Three sources found.', 1200), analysis: result('The sources agree.', 800) },
    next_nodes_to_execute: [],
    current_task: 'Is coffee good for you?',
    execution_order: ['research', 'analysis'],
  });
  const agent = join(root, 'agents', 'agent_research');
  await write(join(agent, 'agent.json'), {
    agent_id: 'research',
    state: {},
    conversation_manager_state: { __name__: 'SlidingWindowConversationManager', removed_message_count: 0 },
    created_at: at,
    updated_at: at,
    _internal_state: {},
  });
  await write(join(agent, 'messages', 'message_0.json'), message('user', 'Is coffee good for you?', 0));
  await write(join(agent, 'messages', 'message_1.json'), message('assistant', 'Three sources found.', 1));
}
