import { describe, expect, it } from 'vitest';
import { Agent, ConfigurationError, InMemorySessionRepository, RepositorySessionManager } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

// Found by the bad-input fuzz (test/reliability): a prompt whose blocks were not objects was stored,
// and the session then failed every restore with a TypeError.

const ids = async (repository: InMemorySessionRepository): Promise<number[]> =>
  (await repository.listMessages('s', 'default')).map((m) => m.message_id);

describe('prompts with content blocks that are not blocks', () => {
  it.each([
    [[5], /prompt\[0\] is a number, not a content block/],
    [[null], /prompt\[0\] is null/],
    [[{ role: 'user', content: ['hi'] }], /prompt\[0\]\.content\[0\] is a string/],
    [[{ text: 'a', toolUse: { toolUseId: 't', name: 'x', input: {} } }], /prompt\[0\] holds text and toolUse at once/],
  ])('rejects %j with a ConfigurationError naming the block, storing nothing', async (prompt, message) => {
    const repository = new InMemorySessionRepository();
    const agent = new Agent({
      model: new ScriptedModel(['ok', 'ok']),
      sessionManager: new RepositorySessionManager({ sessionId: 's', repository }),
    });
    await agent.invoke('hello');
    await expect(agent.invoke(prompt as never)).rejects.toSatisfy(
      (e) => ConfigurationError.is(e) && message.test((e as Error).message),
    );
    expect(await ids(repository)).toEqual([0, 1]);
  });
});
