import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const TEXT = 'The customer asks about order 42 and a duplicate charge on the card. ';

/**
 * Writes a session with one agent of `messages` messages (tool calls every tenth turn) straight to
 * disk in the file layout: a fixture for growth tests and benchmarks, not a durable write.
 */
export async function writeLargeSession(dir: string, sessionId: string, messages: number): Promise<void> {
  const root = join(dir, `session_${sessionId}`);
  const agent = join(root, 'agents', 'agent_desk');
  await mkdir(join(agent, 'messages'), { recursive: true });
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  await writeFile(
    join(root, 'session.json'),
    JSON.stringify({ session_id: sessionId, session_type: 'AGENT', created_at: at, updated_at: at }),
  );
  await writeFile(
    join(agent, 'agent.json'),
    JSON.stringify({ agent_id: 'desk', state: {}, conversation_manager_state: {}, created_at: at, updated_at: at }),
  );
  const batch: Promise<void>[] = [];
  for (let i = 0; i < messages; i++) {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    const content =
      i % 20 === 1
        ? [{ toolUse: { toolUseId: `t${i}`, name: 'lookup_order', input: { orderId: String(i) } } }]
        : i % 20 === 2
          ? [
              {
                toolResult: {
                  toolUseId: `t${i - 1}`,
                  status: 'success',
                  content: [{ json: { orderId: String(i - 1), amount: 80 } }],
                },
              },
            ]
          : [{ text: `${i}: ${TEXT}` }];
    const doc = { message: { role, content }, message_id: i, redact_message: null, created_at: at, updated_at: at };
    batch.push(writeFile(join(agent, 'messages', `message_${i}.json`), JSON.stringify(doc)));
    if (batch.length >= 256) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
}
