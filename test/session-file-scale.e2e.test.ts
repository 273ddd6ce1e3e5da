/**
 * A 10,000-message conversation persisted through FileSessionManager and restored, with growth checks
 * (generous bounds: they catch quadratic behaviour, not noise). Timing numbers live in bench/.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, MessageAddedEvent, NullConversationManager, messageText, type Message } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { FileSessionManager, FileSessionRepository } from '@skein/session-file';

const TOTAL = 10_000;
let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-session-file-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function bestMs(fn: () => Promise<unknown>, rounds = 3): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await fn();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

describe('FileSessionManager at 10,000 messages', () => {
  it('persists and restores 10,000 messages, in time linear in their number', async () => {
    const sessionManager = new FileSessionManager({ sessionId: 'long', storageDir: dir });
    const agent = new Agent({
      model: new ScriptedModel(['the end']),
      conversationManager: new NullConversationManager(),
      sessionManager,
    });
    const persistedAt: number[] = [];
    agent.hooks.addCallback(MessageAddedEvent, () => void persistedAt.push(performance.now())); // runs after the session manager's callback
    const prompt: Message[] = Array.from({ length: TOTAL - 1 }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: [{ text: `message ${i}` }],
    }));
    await agent.invoke(prompt);
    await sessionManager.close();
    expect(persistedAt).toHaveLength(TOTAL);
    // Writing message 9,000..10,000 costs about what 0..1,000 did (quadratic growth would be ~19x).
    const first = (persistedAt[999] as number) - (persistedAt[0] as number);
    const last = (persistedAt[TOTAL - 1] as number) - (persistedAt[TOTAL - 1000] as number);
    expect(last / first).toBeLessThan(5);

    const restoredManager = new FileSessionManager({ sessionId: 'long', storageDir: dir });
    const restored = new Agent({
      model: new ScriptedModel([]),
      conversationManager: new NullConversationManager(),
      sessionManager: restoredManager,
    });
    await restored.initialize();
    expect(restored.messages).toHaveLength(TOTAL);
    expect(messageText(restored.messages[1234] as Message)).toBe('message 1234');
    expect(messageText(restored.messages[TOTAL - 1] as Message)).toBe('the end');
    await restoredManager.close();

    // Restoring 8,000 messages takes about 4x restoring 2,000 (quadratic would be 16x).
    const repository = new FileSessionRepository({ storageDir: dir });
    const small = await bestMs(() => repository.listMessages('long', 'default', { offset: 8_000 }));
    const large = await bestMs(() => repository.listMessages('long', 'default', { offset: 2_000 }));
    expect(large / small).toBeLessThan(10);
  }, 180_000);
});
