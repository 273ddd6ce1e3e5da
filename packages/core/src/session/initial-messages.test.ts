import { describe, expect, it } from 'vitest';
import { Agent, InMemorySessionRepository, RepositorySessionManager, messageText, type Message } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

// An agent built with few-shot `messages` whose process dies while they are being stored: the
// next process builds the same agent on the same session and must see every example, once.

class DiesAfterMessages extends InMemorySessionRepository {
  left: number;
  constructor(left: number) {
    super();
    this.left = left;
  }
  override async createMessage(...args: Parameters<InMemorySessionRepository['createMessage']>): Promise<void> {
    if (this.left-- <= 0) throw new Error('the process died');
    return super.createMessage(...args);
  }
}

const FEW_SHOT: Message[] = [
  { role: 'user', content: [{ text: 'Example: I was charged twice.' }] },
  { role: 'assistant', content: [{ text: 'Example answer: let me check the invoice.' }] },
  { role: 'user', content: [{ text: 'Example: where is my refund?' }] },
  { role: 'assistant', content: [{ text: 'Example answer: refunds take 3 to 5 days.' }] },
];

describe('initial messages across a crash', () => {
  it.each([0, 1, 2, 3])('are all restored and stored once when the process died after %i of them', async (kept) => {
    const repository = new DiesAfterMessages(kept);
    const first = new Agent({
      model: new ScriptedModel(['unused']),
      messages: FEW_SHOT,
      sessionManager: new RepositorySessionManager({ sessionId: 's', repository }),
    });
    await expect(first.initialize()).rejects.toThrow('the process died');
    repository.left = Number.POSITIVE_INFINITY;
    const again = new Agent({
      model: new ScriptedModel(['Answer.']),
      messages: FEW_SHOT,
      sessionManager: new RepositorySessionManager({ sessionId: 's', repository }),
    });
    await again.invoke('Real question');
    const stored = (await repository.listMessages('s', 'default')).map((r) => messageText(r.message));
    expect(stored).toEqual([...FEW_SHOT.map(messageText), 'Real question', 'Answer.']);
    expect(again.messages.map(messageText)).toEqual(stored);
  });

  it('leave a history that moved on alone', async () => {
    const repository = new InMemorySessionRepository();
    const sm = (): RepositorySessionManager => new RepositorySessionManager({ sessionId: 's', repository });
    await new Agent({
      model: new ScriptedModel(['One.']),
      messages: FEW_SHOT.slice(0, 2),
      sessionManager: sm(),
    }).invoke('Q1');
    const again = new Agent({
      model: new ScriptedModel(['Two.']),
      messages: FEW_SHOT.slice(0, 2),
      sessionManager: sm(),
    });
    await again.invoke('Q2');
    expect(again.messages.map(messageText)).toEqual([
      ...FEW_SHOT.slice(0, 2).map(messageText),
      'Q1',
      'One.',
      'Q2',
      'Two.',
    ]);
  });
});
