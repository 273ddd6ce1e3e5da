import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, ModelThrottledError, fallback, tool, type Model } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { createServer } from './index.js';
import { memorySessions, post, readSse } from './test-support/server-fixtures.js';

// What a delegating model did (fallback, route) and what works worse than it could (warnings) reach
// HTTP clients like every other event of the run: as SSE events, and as UI data parts.

const overloaded = { error: new ModelThrottledError('overloaded (529)', { status: 529 }) };

/** A scripted model that places prompt-cache breakpoints itself (so core checks the cached prefix). */
function caching(): Model {
  const inner = new ScriptedModel([{ text: 'Looking.', toolUses: [{ name: 'look', input: {} }] }, 'Found it.'], {
    loop: true,
    record: false,
  });
  return { modelId: 'cached', cache: 'auto', stream: (request) => inner.stream(request) };
}

/** A tool that changes the agent's system prompt (so the next model call cannot reuse the cached prefix). */
const look = tool({
  name: 'look',
  description: 'Looks',
  inputSchema: z.object({}),
  callback: (_input, { agent }) => {
    agent.systemPrompt = 'You look things up (v2).';
    return 'seen';
  },
});

function server() {
  const { sessions } = memorySessions();
  return createServer({
    agents: {
      failover: ({ sessionManager }) =>
        new Agent({
          name: 'failover',
          model: fallback(
            [
              new ScriptedModel([overloaded], { modelId: 'primary', loop: true, record: false }),
              new ScriptedModel(['From the backup.'], { modelId: 'backup', loop: true, record: false }),
            ],
            { circuitBreaker: false },
          ),
          sessionManager,
        }),
      trimmed: ({ sessionManager }) =>
        new Agent({
          name: 'trimmed',
          model: caching(),
          systemPrompt: 'You look things up.',
          tools: [look],
          sessionManager,
        }),
    },
    sessions,
    onError: () => undefined,
  });
}

describe('model attempts and warnings over HTTP', () => {
  it("a fallback's attempts are modelAttempt events: which model, how it went, the error's message", async () => {
    const app = server();
    const res = await post(
      app,
      '/v1/agents/failover/conversations/f1/messages',
      { message: 'hi' },
      {
        accept: 'text/event-stream',
      },
    );
    const attempts = (await readSse(res)).filter((e) => e.event === 'modelAttempt').map((e) => e.data);
    expect(attempts).toEqual([
      expect.objectContaining({ type: 'modelAttempt', path: [], modelId: 'primary', outcome: 'failed' }),
      expect.objectContaining({ type: 'modelAttempt', path: [], modelId: 'backup', outcome: 'answered' }),
    ]);
    expect(attempts[0]).toMatchObject({ error: expect.stringContaining('overloaded (529)') });
    expect(attempts[1]).not.toHaveProperty('error');
    expect(attempts[0]).not.toHaveProperty('model');
  });

  it('a warning is a warning event; the UI stream has both as transient data parts', async () => {
    const app = server();
    const res = await post(
      app,
      '/v1/agents/trimmed/conversations/w1/messages',
      { message: 'find it' },
      {
        accept: 'text/event-stream',
      },
    );
    const warnings = (await readSse(res)).filter((e) => e.event === 'warning').map((e) => e.data);
    expect(warnings).toEqual([
      { type: 'warning', path: [], code: 'cache_prefix_rewritten', message: expect.stringContaining('cached') },
    ]);

    const ui = await post(app, '/v1/agents/failover/conversations/f2/ui', {
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
    });
    const chunks = (await ui.text())
      .split('\n\n')
      .filter((f) => f.startsWith('data: {'))
      .map((f) => JSON.parse(f.slice(6)) as { type: string; data?: unknown; transient?: boolean });
    expect(chunks.filter((c) => c.type === 'data-skein-model-attempt')).toEqual([
      {
        type: 'data-skein-model-attempt',
        data: expect.objectContaining({ path: [], modelId: 'primary', outcome: 'failed' }),
        transient: true,
      },
      {
        type: 'data-skein-model-attempt',
        data: expect.objectContaining({ path: [], modelId: 'backup', outcome: 'answered' }),
        transient: true,
      },
    ]);
    const trimmed = await post(app, '/v1/agents/trimmed/conversations/w2/ui', {
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'find it' }] }],
    });
    expect(await trimmed.text()).toContain(
      '"type":"data-skein-warning","data":{"path":[],"code":"cache_prefix_rewritten"',
    );
  });
});
