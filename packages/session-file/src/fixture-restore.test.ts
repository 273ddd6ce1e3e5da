import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, messageText, type ImageBlock } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { FileSessionManager } from './index.js';

const fixtures = fileURLToPath(new URL('./fixtures/strands-sessions', import.meta.url));
let dir: string;
const managers: FileSessionManager[] = [];

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-session-file-'));
  await fs.cp(fixtures, dir, { recursive: true }); // work on a copy: the fixture stays as written
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
  await fs.rm(dir, { recursive: true, force: true });
});

function open(): FileSessionManager {
  const m = new FileSessionManager({ sessionId: 'strands-fixture', storageDir: dir });
  managers.push(m);
  return m;
}

describe('a session directory in the Strands layout', () => {
  it('restores into an agent with the right messages (image bytes, tool pair, redaction) and state', async () => {
    const model = new ScriptedModel(['競馬やで!']);
    const agent = new Agent({ model, sessionManager: open() });
    await agent.initialize();
    expect(agent.state.get()).toEqual({ user_preferences: { theme: 'dark' }, session_count: 1 });
    expect(agent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    const image = agent.messages[0]?.content[1] as ImageBlock;
    expect(image.image.format).toBe('png');
    expect(image.image.source.bytes).toBeInstanceOf(Uint8Array);
    expect([...image.image.source.bytes.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(agent.messages[1]?.content[1]).toEqual({
      toolUse: { toolUseId: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'calculator', input: { expression: '25 * 48' } },
    });
    expect(messageText(agent.messages[3]!)).toBe('[User input redacted.]');
    expect(messageText(agent.messages[5]!)).toBe('あなたの趣味は競馬だとおっしゃっていましたね。');

    await agent.invoke('もう一回教えて');
    expect(model.requests[0]?.messages).toHaveLength(7);
    const stored = JSON.parse(
      await fs.readFile(path.join(dir, 'session_strands-fixture/agents/agent_default/messages/message_6.json'), 'utf8'),
    );
    expect(Object.keys(stored)).toEqual(['message', 'message_id', 'redact_message', 'created_at', 'updated_at']);
    expect(stored).toMatchObject({
      message: { role: 'user', content: [{ text: 'もう一回教えて' }] },
      message_id: 6,
      redact_message: null,
    });
  });

  it('leaves the stored files as they were after a restore (reads never rewrite)', async () => {
    const before = await fs.readFile(
      path.join(dir, 'session_strands-fixture/agents/agent_default/messages/message_0.json'),
      'utf8',
    );
    await new Agent({ model: new ScriptedModel([]), sessionManager: open() }).initialize();
    const after = await fs.readFile(
      path.join(dir, 'session_strands-fixture/agents/agent_default/messages/message_0.json'),
      'utf8',
    );
    expect(after).toBe(before);
    await expect(fs.stat(path.join(dir, 'session_strands-fixture/.skein.lock'))).rejects.toThrow(); // restore alone takes no lock
  });

  it('writes the same layout and JSON format as Strands (2-space indent, bytes encoded)', async () => {
    const sessionManager = new FileSessionManager({ sessionId: 'my_session', storageDir: dir });
    managers.push(sessionManager);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const agent = new Agent({ model: new ScriptedModel(['競馬がご趣味なんですね!']), sessionManager });
    await agent.invoke([{ text: '私の趣味は競馬なんですよ!' }, { image: { format: 'png', source: { bytes: png } } }]);
    const root = path.join(dir, 'session_my_session');
    const files = (await fs.readdir(root, { recursive: true })).filter((f) => f.endsWith('.json')).sort();
    expect(files).toEqual([
      'agents/agent_default/agent.json',
      'agents/agent_default/messages/message_0.json',
      'agents/agent_default/messages/message_1.json',
      'session.json',
    ]);
    const text = await fs.readFile(path.join(root, 'agents/agent_default/messages/message_0.json'), 'utf8');
    expect(text).toContain('\n  "message": {\n    "role": "user"');
    expect(JSON.parse(text).message.content[1]).toEqual({
      image: { format: 'png', source: { bytes: { __bytes_encoded__: true, data: 'iVBORw==' } } },
    });
    expect(Object.keys(JSON.parse(await fs.readFile(path.join(root, 'session.json'), 'utf8')))).toEqual([
      'session_id',
      'session_type',
      'created_at',
      'updated_at',
    ]);
    expect(
      Object.keys(JSON.parse(await fs.readFile(path.join(root, 'agents/agent_default/agent.json'), 'utf8'))),
    ).toEqual(['agent_id', 'state', 'conversation_manager_state', 'created_at', 'updated_at']);
  });
});
