import {
  Agent,
  ExponentialBackoffRetry,
  InMemorySessionRepository,
  RepositorySessionManager,
  type ToolResult,
} from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteAgent, RemoteAgentError } from '../index.js';
import { startSdkAgent, type SdkAgent } from '../test-support/sdk-server.js';

const agents: SdkAgent[] = [];
afterEach(async () => {
  for (const a of agents.splice(0)) await a.close();
});
async function sdkAgent(...args: Parameters<typeof startSdkAgent>): Promise<SdkAgent> {
  const a = await startSdkAgent(...args);
  agents.push(a);
  return a;
}

const fastRetry = new ExponentialBackoffRetry({
  maxAttempts: 3,
  initialDelayMs: 1,
  transientInitialDelayMs: 1,
  jitter: false,
});

/** A caller agent whose model asks the remote tool once, then answers with the tool's result. */
function caller(tool: ReturnType<RemoteAgent['asTool']>): Agent {
  return new Agent({
    name: 'caller',
    tools: [tool],
    model: new ScriptedModel(
      [
        (request) => {
          const last = request.messages.at(-1);
          const result = last?.content.find((b) => 'toolResult' in b);
          if (!result || !('toolResult' in result))
            return {
              toolUses: [
                {
                  name: tool.name,
                  input: { input: 'hello' },
                  toolUseId: 'tu-1',
                },
              ],
            };
          const r: ToolResult = result.toolResult;
          return `${r.status}: ${r.content.map((c) => ('text' in c ? c.text : '')).join('')}`;
        },
      ],
      { loop: true },
    ),
  });
}

describe('a remote agent served by @a2a-js/sdk, called from skein', () => {
  for (const streaming of [true, false]) {
    it(`is a tool whose result is the remote answer (streaming: ${streaming})`, async () => {
      const sdk = await sdkAgent('echo', { streaming });
      const remote = new RemoteAgent({ name: 'echo', url: sdk.url });
      const result = await caller(remote.asTool()).invoke('go');
      expect(String(result)).toBe('success: echo: hello');
      expect(sdk.calls).toContain(streaming ? 'SendStreamingMessage' : 'SendMessage');
      expect(sdk.received).toEqual(['hello']);
    });
  }

  it("reports what the streamed remote task says in its caller's stream, at the caller's path and its name", async () => {
    const sdk = await sdkAgent('echo', { streaming: true });
    const remote = new RemoteAgent({ name: 'echo', url: sdk.url });
    const nested: string[] = [];
    for await (const e of caller(remote.asTool()).stream('go'))
      if (e.type === 'toolStream' && e.event.type === 'textDelta') nested.push(`${e.path}: ${e.event.data}`);
    expect(nested).toEqual(['caller/echo: echo: hello\n']);
    // Nobody watching: nothing reported (and the same answer).
    expect(String(await caller(remote.asTool()).invoke('go'))).toBe('success: echo: hello');
  });

  it("sends over HTTP+JSON too, with the caller's headers", async () => {
    const sdk = await sdkAgent('echo');
    const remote = new RemoteAgent({
      name: 'echo',
      url: sdk.url,
      transport: 'HTTP+JSON',
      headers: () => ({ 'x-api-key': 'k1' }),
    });
    const answer = await remote.send('over rest');
    expect(sdk.lastHeaders['x-api-key']).toBe('k1');
    expect(sdk.lastHeaders['traceparent']).toBeUndefined(); // no active span, nothing sent
    expect(answer.text).toBe('echo: over rest');
    expect(answer.taskId).toMatch(/-/);
    expect(sdk.calls.some((c) => c.includes('/message:stream'))).toBe(true);
  });

  for (const streaming of [true, false]) {
    it(`turns a remote input-required into an interrupt, and sends the answer to the remote task (streaming: ${streaming})`, async () => {
      const sdk = await sdkAgent('ask', { streaming });
      const remote = new RemoteAgent({ name: 'payments', url: sdk.url });
      const agent = caller(remote.asTool());
      const paused = await agent.invoke('go');
      expect(paused.stopReason).toBe('interrupt');
      const [interrupt] = paused.interrupts;
      expect(interrupt).toMatchObject({
        id: 'tu-1#input',
        name: 'input',
        source: 'caller',
      });
      expect(interrupt?.reason).toMatchObject({
        question: 'Which currency?',
        remote: { agent: 'payments', url: sdk.url },
      });
      const done = await agent.invoke([{ interruptResponse: { interruptId: 'tu-1#input', response: 'EUR' } }]);
      expect(String(done)).toBe('success: paid in EUR');
      expect(sdk.received).toEqual(['hello', 'EUR']);
    });
  }

  it('a failed remote task is an error result naming the agent, the task and the cause', async () => {
    const sdk = await sdkAgent('fail');
    const remote = new RemoteAgent({ name: 'ledger', url: sdk.url });
    const result = await caller(remote.asTool()).invoke('go');
    expect(String(result)).toMatch(
      new RegExp(
        `^error: Remote agent ledger \\(${sdk.url}, task [0-9a-f-]+\\): its task ended failed: the ledger is closed$`,
      ),
    );
    const error = await remote.send('x').catch((e: unknown) => e);
    expect(RemoteAgentError.is(error)).toBe(true);
    expect(error).toMatchObject({
      failure: 'task_failed',
      agent: 'ledger',
      detail: 'its task ended failed: the ledger is closed',
    });
  });

  it('an unreachable agent is retried, then a RemoteAgentError', async () => {
    const sdk = await sdkAgent('echo');
    await sdk.close();
    agents.pop();
    const remote = new RemoteAgent({
      name: 'gone',
      url: sdk.url,
      retryStrategy: fastRetry,
    });
    const error = (await remote.send('x').catch((e: unknown) => e)) as RemoteAgentError;
    expect(error).toBeInstanceOf(RemoteAgentError);
    expect(error.failure).toBe('unreachable');
    expect(error.message).toMatch(
      new RegExp(`^Remote agent gone \\(${sdk.url}\\): .*ECONNREFUSED.*\\(after 3 attempts\\)$`),
    );
  });

  it('a card with missing fields is a RemoteAgentError (InvalidAgentResponse) listing them, and nothing is stored', async () => {
    const sdk = await sdkAgent('echo', {
      card: (c) => ({ ...c, name: undefined, supportedInterfaces: [] }),
    });
    const repository = new InMemorySessionRepository();
    const sessionManager = new RepositorySessionManager({
      sessionId: 'caller',
      repository,
    });
    const remote = new RemoteAgent({
      name: 'broken',
      url: sdk.url,
      sessionManager,
    });
    const error = (await remote.send('x').catch((e: unknown) => e)) as RemoteAgentError;
    expect(error.failure).toBe('bad_card');
    expect(error.a2aCode).toBe(-32006);
    expect(error.detail).toBe(
      `its card at ${sdk.url}/.well-known/agent-card.json cannot be used: name is missing; supportedInterfaces is missing or empty (no URL to call).`,
    );
    expect(sdk.received).toEqual([]);
    expect(await repository.readSession('caller')).toBeUndefined();
  });

  it('times out with a RemoteAgentError naming the task', async () => {
    const sdk = await sdkAgent('slow', { slowMs: 2_000 });
    const remote = new RemoteAgent({
      name: 'slowpoke',
      url: sdk.url,
      timeoutMs: 300,
    });
    const error = (await remote.send('x').catch((e: unknown) => e)) as RemoteAgentError;
    expect(error.failure).toBe('timeout');
    expect(error.message).toMatch(/^Remote agent slowpoke \(.*, task [0-9a-f-]+\): no answer within 300 ms$/);
  });
});

describe('cancelling a caller', () => {
  it('with cancelOnAbort, cancels the remote task (CancelTask); without, leaves it running', async () => {
    const sdk = await sdkAgent('slow', { slowMs: 1_000 });
    const stopped = new AbortController();
    const remote = new RemoteAgent({
      name: 'slow',
      url: sdk.url,
      cancelOnAbort: true,
    });
    const call = remote.send('go', { signal: stopped.signal });
    while (sdk.received.length === 0) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 100));
    stopped.abort(new Error('the user left'));
    await expect(call).rejects.toThrow('the user left');
    expect(sdk.calls).toContain('CancelTask');
    const calls = sdk.calls.length;
    const keeps = new RemoteAgent({ name: 'slow', url: sdk.url });
    const other = new AbortController();
    const second = keeps.send('again', { signal: other.signal });
    while (sdk.received.length < 2) await new Promise((r) => setTimeout(r, 10));
    other.abort(new Error('gone'));
    await expect(second).rejects.toThrow('gone');
    expect(sdk.calls.slice(calls)).not.toContain('CancelTask');
  });
});
