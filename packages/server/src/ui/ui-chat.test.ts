import { describe, expect, it } from 'vitest';
import { lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from 'ai';
import { post, readSome, testServer } from '../test-support/server-fixtures.js';
import { TestChat } from '../test-support/ui-chat.js';

const partTypes = (m: UIMessage | undefined) => (m?.parts ?? []).map((p) => p.type);

describe('the AI SDK chat client (ai: AbstractChat + DefaultChatTransport) against POST .../ui', () => {
  it('streams text, says who speaks, and ends ready', async () => {
    const { app } = testServer();
    const chat = new TestChat(app, '/v1/agents/echo/conversations/u1/ui');
    await chat.sendMessage({ text: 'hello there' });
    expect(chat.status).toBe('ready');
    expect(chat.error).toBeUndefined();
    const reply = chat.messages.at(-1);
    expect(reply?.role).toBe('assistant');
    expect(reply?.id).toBe('turn-1');
    const text = reply?.parts
      .filter((p) => p.type === 'text')
      .map((p) => (p as { text: string }).text)
      .join('');
    expect(text).toBe('You said: hello there');
    expect(reply?.parts).toContainEqual({ type: 'data-skein-speaker', id: 'speaker-0', data: { path: [] } });
    expect(reply?.parts).toContainEqual(
      expect.objectContaining({ type: 'data-skein-result', data: { turn: 1, status: 'completed' } }),
    );
    await chat.sendMessage({ text: 'second' });
    expect(chat.messages).toHaveLength(4);
    expect(chat.messages.at(-1)?.id).toBe('turn-2');
  });

  it('a graph: node data parts and one text part per node', async () => {
    const { app } = testServer();
    const chat = new TestChat(app, '/v1/graphs/desk/conversations/u2/ui');
    await chat.sendMessage({ text: 'route this' });
    const reply = chat.messages.at(-1);
    const nodes = reply?.parts.filter((p) => p.type === 'data-skein-node').map((p) => (p as { data: unknown }).data);
    expect(nodes).toEqual([
      { path: ['triage'], status: 'completed' },
      { path: ['answer'], status: 'completed' },
    ]);
    const speakers = reply?.parts
      .filter((p) => p.type === 'data-skein-speaker')
      .map((p) => (p as { data: { path: string[] } }).data.path);
    expect(speakers).toEqual([['triage'], ['answer']]);
    expect(partTypes(reply).filter((t) => t === 'text')).toHaveLength(2);
  });

  it("tool calls with input and output, and approvals through the SDK's own tool-approval parts", async () => {
    const { app, ledger } = testServer();
    const chat = new TestChat(app, '/v1/agents/refund/conversations/u3/ui', {
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    await chat.sendMessage({ text: 'Refund order 42, 80 EUR' });
    const asked = chat.messages.at(-1);
    const tool = asked?.parts.find((p) => p.type === 'dynamic-tool') as
      | { toolName: string; toolCallId: string; state: string; input: unknown; approval?: { id: string } }
      | undefined;
    expect(tool).toMatchObject({
      toolName: 'issue_refund',
      state: 'approval-requested',
      input: { orderId: '42', amount: 80 },
    });
    expect(ledger.refunds).toEqual([]);

    await chat.addToolApprovalResponse({ id: tool?.approval?.id as string, approved: true });
    await new Promise((r) => setTimeout(r, 50));
    while (chat.status !== 'ready') await new Promise((r) => setTimeout(r, 10));
    expect(chat.error).toBeUndefined();
    expect(ledger.refunds).toEqual(['42:80']);
    expect(chat.messages).toHaveLength(2);
    const done = chat.messages.at(-1);
    const answered = done?.parts.find((p) => p.type === 'dynamic-tool') as { state: string; output: unknown };
    expect(answered).toMatchObject({ state: 'output-available', output: 'refunded 80 EUR for order 42' });
    const text = done?.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text);
    expect(text).toEqual(['Let me refund that.', 'Refund: refunded 80 EUR for order 42']);
  });

  it('resumeStream re-joins a running turn through GET .../stream?format=ui', async () => {
    const { app } = testServer();
    const message = 'a long message that keeps the slow agent streaming for some time';
    const first = await post(
      app,
      '/v1/agents/slow/conversations/u4/messages',
      { message },
      { accept: 'text/event-stream' },
    );
    await readSome(first, 3);
    const chat = new TestChat(app, '/v1/agents/slow/conversations/u4/ui');
    await chat.resumeStream();
    expect(chat.error).toBeUndefined();
    const reply = chat.messages.at(-1);
    const text = reply?.parts
      .filter((p) => p.type === 'text')
      .map((p) => (p as { text: string }).text)
      .join('');
    expect(text).toBe(`You said: ${message}`);
    const idle = new TestChat(app, '/v1/agents/slow/conversations/u4/ui');
    await idle.resumeStream();
    expect(idle.messages).toEqual([]);
    expect(idle.status).toBe('ready');
  });
});
