/**
 * A call whose caller crashed, or whose connection dropped, resumes the remote task (GetTask,
 * SubscribeToTask, or ListTasks by its own context id when the task id never arrived) and never
 * sends the message again.
 */
import { ExponentialBackoffRetry, InMemorySessionRepository, RepositorySessionManager } from '@skein/core';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteAgent } from '../index.js';
import { startSdkAgent, type SdkAgent } from '../test-support/sdk-server.js';

const agents: SdkAgent[] = [];
afterEach(async () => {
  for (const a of agents.splice(0)) await a.close();
});

const retry = new ExponentialBackoffRetry({
  maxAttempts: 4,
  initialDelayMs: 1,
  transientInitialDelayMs: 1,
  jitter: false,
});

function session() {
  const repository = new InMemorySessionRepository();
  return () => new RepositorySessionManager({ sessionId: 'caller', repository });
}

/** A fetch that sends the first message request, then fails as if the connection was reset before the answer. */
function dropFirstSend(): typeof fetch {
  let dropped = false;
  return async (input, init) => {
    const response = await fetch(input, init);
    const body = typeof init?.body === 'string' ? init.body : '';
    if (!dropped && /"method":"Send(Streaming)?Message"/.test(body)) {
      dropped = true;
      await response.body?.cancel();
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      });
    }
    return response;
  };
}

/** A fetch whose first event stream is cut after its first event. */
function cutFirstStream(): typeof fetch {
  let cut = false;
  return async (input, init) => {
    const response = await fetch(input, init);
    if (cut || !response.headers.get('content-type')?.startsWith('text/event-stream') || !response.body)
      return response;
    cut = true;
    const reader = response.body.getReader();
    const first = await reader.read();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        if (first.value) c.enqueue(first.value);
        c.close();
        void reader.cancel();
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

describe('resuming a remote call', () => {
  for (const streaming of [true, false]) {
    it(`a caller killed mid-call resumes the task by its id, without sending again (streaming: ${streaming})`, async () => {
      const sdk = await startSdkAgent('slow', { slowMs: 1_500, streaming });
      agents.push(sdk);
      const sessions = session();
      const first = new RemoteAgent({ name: 'slow', url: sdk.url, sessionManager: sessions(), pollIntervalMs: 20 });
      const killed = new AbortController();
      // Killed once the remote agent has the message and the caller had time to read the task id.
      const kill = setInterval(() => {
        if (sdk.received.length === 0) return;
        clearInterval(kill);
        setTimeout(() => killed.abort(new Error('the caller died')), 300);
      }, 10);
      await expect(first.send('once', { key: 'call-1', signal: killed.signal })).rejects.toThrow('the caller died');
      const second = new RemoteAgent({ name: 'slow', url: sdk.url, sessionManager: sessions(), pollIntervalMs: 20 });
      const answer = await second.send('once', { key: 'call-1' });
      expect(answer.text).toBe('echo: once');
      expect(sdk.received).toEqual(['once']);
      expect(sdk.calls).toContain('GetTask');
      if (streaming) expect(sdk.calls).toContain('SubscribeToTask');
      const third = await second.send('once', { key: 'call-1' });
      expect(third.text).toBe('echo: once');
      expect(sdk.received).toEqual(['once']);
    });
  }

  it('a message whose answer was lost is found with ListTasks by its context, not sent again', async () => {
    const sdk = await startSdkAgent('echo');
    agents.push(sdk);
    const remote = new RemoteAgent({ name: 'echo', url: sdk.url, fetch: dropFirstSend(), retryStrategy: retry });
    const answer = await remote.send('exactly once');
    expect(answer.text).toBe('echo: exactly once');
    expect(sdk.received).toEqual(['exactly once']);
    expect(sdk.calls).toContain('ListTasks');
  });

  it('the same, across a crash: a new caller on the same session finds the task', async () => {
    const sdk = await startSdkAgent('echo');
    agents.push(sdk);
    const sessions = session();
    const first = new RemoteAgent({
      name: 'echo',
      url: sdk.url,
      sessionManager: sessions(),
      fetch: dropFirstSend(),
      retryStrategy: null,
    });
    await expect(first.send('exactly once', { key: 'k' })).rejects.toMatchObject({ failure: 'unreachable' });
    const second = new RemoteAgent({ name: 'echo', url: sdk.url, sessionManager: sessions() });
    expect((await second.send('exactly once', { key: 'k' })).text).toBe('echo: exactly once');
    expect(sdk.received).toEqual(['exactly once']);
  });

  it('a call key that starts with - or _ (an idempotency key may) is stored and found again', async () => {
    const sdk = await startSdkAgent('echo');
    agents.push(sdk);
    const sessions = session();
    const first = new RemoteAgent({ name: 'echo', url: sdk.url, sessionManager: sessions() });
    const keys = ['-lNCEOqPwVW-FisYsQb8aWJF5gzMKX43MpIf3kdP2vs', '_lNCEOqPwVW-FisYsQb8aWJF5gzMKX43MpIf3kdP2vs'];
    for (const key of keys) expect((await first.send(`once ${key[0]}`, { key })).text).toBe(`echo: once ${key[0]}`);
    const second = new RemoteAgent({ name: 'echo', url: sdk.url, sessionManager: sessions() });
    for (const key of keys) expect((await second.send(`once ${key[0]}`, { key })).text).toBe(`echo: once ${key[0]}`);
    expect(sdk.received).toEqual(['once -', 'once _']);
  });

  it('a stream cut before the end is resubscribed', async () => {
    const sdk = await startSdkAgent('slow', { slowMs: 1_500 });
    agents.push(sdk);
    const remote = new RemoteAgent({ name: 'slow', url: sdk.url, fetch: cutFirstStream(), retryStrategy: retry });
    expect((await remote.send('go')).text).toBe('echo: go');
    expect(sdk.received).toEqual(['go']);
    expect(sdk.calls.filter((c) => c === 'SendStreamingMessage')).toHaveLength(1);
    expect(sdk.calls).toContain('SubscribeToTask');
  });
});
