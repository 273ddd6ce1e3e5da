import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, ModelThrottledError, fallback } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { FileSessionManager } from '@skein/session-file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './index.js';
import { captureIo } from './test-support/capture-io.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-inspector-models-'));
  const overloaded = { error: new ModelThrottledError('overloaded', { status: 529 }) };
  const chain = fallback(
    [
      new ScriptedModel([overloaded], { modelId: 'claude-primary' }),
      new ScriptedModel(
        [
          {
            text: 'handled',
            usage: { inputTokens: 5, outputTokens: 2, cacheReadInputTokens: 900, cacheWriteInputTokens: 40 },
          },
        ],
        {
          modelId: 'bedrock-backup',
        },
      ),
    ],
    { circuitBreaker: false },
  );
  const graph = new GraphBuilder()
    .setId('desk')
    .addNode(
      new Agent({ name: 'triage', model: new ScriptedModel(['billing'], { modelId: 'claude-primary' }) }),
      'triage',
    )
    .addNode(new Agent({ name: 'billing', model: chain }), 'billing')
    .addEdge('triage', 'billing')
    .setSessionManager(new FileSessionManager({ sessionId: 'fallback-run', storageDir: dir }))
    .build();
  await graph.invoke('I was charged twice');
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('which model answered', () => {
  it('skein show names the model that answered each node (the fallback included) and its cache reads and writes', async () => {
    const io = captureIo();
    expect(await runCli(['show', dir, 'fallback-run'], io)).toBe(0);
    const lines = io.out().split('\n');
    expect(lines.find((l) => l.includes(' triage '))).toMatch(/by claude-primary/);
    expect(lines.find((l) => l.includes(' billing '))).toMatch(/\(cache: 900 read, 40 written\)  by bedrock-backup/);
  });
});
