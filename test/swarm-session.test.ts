import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Agent,
  BeforeNodeCallEvent,
  InMemorySessionRepository,
  RepositorySessionManager,
  tool,
  type SessionManager,
} from '@skein/core';
import { z } from 'zod';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { FileSessionManager } from '@skein/session-file';
import { Swarm } from '@skein/swarm';
import { afterEach, describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const toBilling = {
  name: 'transfer_to_billing_agent',
  toolUseId: 'h1',
  input: { message: 'double charge', context: { order_id: '42' } },
};

interface Team {
  swarm: Swarm;
  models: Record<'triage' | 'billing' | 'refund', ScriptedModel>;
  agents: Record<'triage' | 'billing' | 'refund', Agent>;
}

const verify = tool({
  name: 'verify_customer',
  description: 'Marks the customer as verified.',
  inputSchema: z.object({ tier: z.string() }),
  callback: ({ tier }, ctx) => {
    ctx.agent.state.set('verified', tier);
    return 'verified';
  },
});

function team(
  sessionManager: SessionManager,
  scripts: Partial<Record<'triage' | 'billing' | 'refund', ScriptedTurn[]>>,
): Team {
  const models = {
    triage: new ScriptedModel(scripts.triage ?? []),
    billing: new ScriptedModel(scripts.billing ?? []),
    refund: new ScriptedModel(scripts.refund ?? []),
  };
  const agents = {
    triage: new Agent({ model: models.triage, name: 'Triage agent', retryStrategy: null, tools: [verify] }),
    billing: new Agent({ model: models.billing, name: 'Billing agent', retryStrategy: null }),
    refund: new Agent({ model: models.refund, name: 'Refund agent', retryStrategy: null }),
  };
  const swarm = new Swarm({ nodes: [agents.triage, agents.billing, agents.refund], sessionManager, id: 'support' });
  return { swarm, models, agents };
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await fs.rm(dir, { recursive: true, force: true });
});

describe('swarm sessions', () => {
  it('persists a small state, the task, turns, transitions and node results; resumes at a recorded handoff target', async () => {
    const repository = new InMemorySessionRepository();
    const first = team(new RepositorySessionManager({ sessionId: 'c1', repository }), {
      triage: [{ toolUses: [{ name: 'verify_customer', input: { tier: 'gold' } }] }, { toolUses: [toBilling] }],
    });
    first.swarm.hooks.addCallback(BeforeNodeCallEvent, (e) => {
      if (e.nodeId === 'Billing agent') throw new Error('simulated crash before billing starts');
    });
    await expect(first.swarm.invoke('I was charged twice')).rejects.toThrow('simulated crash');

    const stored = await repository.readMultiAgent('c1', 'support');
    expect(stored?.type).toBe('swarm');
    expect(stored?.state).toMatchObject({
      status: 'executing',
      current: 'Billing agent',
      pendingHandoff: { from: 'Triage agent', to: 'Billing agent', toolUseId: 'h1', input: toBilling.input },
      handoffCount: 1,
      nodeHistory: ['Triage agent'],
      turns: 1,
    });
    // The state stays small: the conversation and shared context are rebuilt from the task and turns.
    expect(Object.keys(stored?.state ?? {})).not.toContain('conversation');
    expect(Object.keys(stored?.state ?? {})).not.toContain('sharedContext');
    expect((await repository.readTransitions('c1', 'support')).map((t) => t.kind)).toEqual(['start', 'handoff']);
    const entries = await repository.readNodeEntries('c1', 'support');
    expect(Object.keys(entries).sort()).toEqual(['run.task', 'run.turn.000000', 'triage_agent']);
    expect(entries['run.task']).toEqual({
      kind: 'task',
      messages: [{ role: 'user', content: [{ text: 'I was charged twice' }] }],
    });
    const turn = entries['run.turn.000000'] as { node: string; newItems: unknown[]; state: unknown; handoff: unknown };
    expect(turn.node).toBe('Triage agent');
    expect(turn.newItems).toHaveLength(4);
    expect(turn.state).toEqual({ verified: 'gold' });
    expect(turn.handoff).toEqual({
      toolName: 'transfer_to_billing_agent',
      toolUseId: 'h1',
      input: toBilling.input,
      to: 'Billing agent',
    });
    // Members are not stored as session agents: their histories derive from the turns.
    expect(await repository.readAgent('c1', 'support.triage_agent')).toBeUndefined();

    const second = team(new RepositorySessionManager({ sessionId: 'c1', repository }), {
      billing: ['Refunded the duplicate charge.'],
    });
    const result = await second.swarm.invoke('ignored: the unfinished run resumes');
    expect(result.status).toBe('completed');
    expect(result.nodeHistory).toEqual(['Triage agent', 'Billing agent']);
    expect(result.sharedContext).toEqual({ 'Triage agent': { order_id: '42' } });
    expect(result.accumulatedUsage.totalTokens).toBe(45);
    expect(second.agents.triage.state.get()).toEqual({ verified: 'gold' });
    expect(second.agents.triage.messages).toHaveLength(5);
    expect(result.transitions.map((t) => [t.seq, t.kind])).toEqual([
      [0, 'start'],
      [1, 'handoff'],
      [2, 'resume'],
      [3, 'complete'],
    ]);
    expect(second.models.triage.requests).toHaveLength(0);
    const sent = second.models.billing.requests[0]?.messages ?? [];
    expect(sent[0]?.content).toEqual([{ text: 'I was charged twice' }]);
    expect(JSON.stringify(sent.at(-1))).toContain('Message from Triage agent: double charge');
    expect(result.results['Triage agent']?.status).toBe('completed');
  });

  it('a finished swarm starts fresh on the next invoke', async () => {
    const repository = new InMemorySessionRepository();
    const t = team(new RepositorySessionManager({ sessionId: 'c2', repository }), {
      triage: [{ toolUses: [toBilling] }, 'Hello again, how can I help?'],
      billing: ['done'],
    });
    t.agents.triage.state.set('greeted', false);
    const first = await t.swarm.invoke('first question');
    expect(first.status).toBe('completed');
    const second = await t.swarm.invoke('second question');
    expect(second.status).toBe('completed');
    expect(second.nodeHistory).toEqual(['Triage agent']);
    expect(second.transitions.map((x) => [x.seq, x.kind])).toEqual([
      [0, 'start'],
      [1, 'complete'],
    ]);
    expect(second.sharedContext).toEqual({});
    expect(second.accumulatedUsage.totalTokens).toBe(15);
    expect(t.models.triage.requests[1]?.messages).toEqual([{ role: 'user', content: [{ text: 'second question' }] }]);
    expect((await repository.readTransitions('c2', 'support')).length).toBe(2);
  });

  it('an unfinished run in the earlier layout (version 1) is refused clearly; a finished one is replaced', async () => {
    const repository = new InMemorySessionRepository();
    const old = await new RepositorySessionManager({ sessionId: 'v1', repository }).openMultiAgent('support', 'swarm');
    await old.saveState({
      version: 1,
      status: 'executing',
      current: 'Billing agent',
      conversation: { inputHistory: [], items: [] },
    });
    const stuck = team(new RepositorySessionManager({ sessionId: 'v1', repository }), {});
    await expect(stuck.swarm.invoke('hi')).rejects.toThrow(/version 1, expected 2.*clear the session/);

    await old.saveState({
      version: 1,
      status: 'completed',
      current: 'Billing agent',
      conversation: { inputHistory: [], items: [] },
    });
    const fresh = team(new RepositorySessionManager({ sessionId: 'v1', repository }), { triage: ['Hello.'] });
    expect((await fresh.swarm.invoke('hi')).status).toBe('completed');
    expect((await repository.readMultiAgent('v1', 'support'))?.state).toMatchObject({
      version: 2,
      status: 'completed',
      turns: 1,
    });
  });

  it('survives SIGKILL of the process mid-run and resumes at the right agent with context, usage and time', async () => {
    const storageDir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-swarm-'));
    dirs.push(storageDir);
    const child = `
      import { Agent, BeforeNodeCallEvent } from '@skein/core';
      import { ScriptedModel } from '@skein/core/testing';
      import { FileSessionManager } from '@skein/session-file';
      import { Swarm } from '@skein/swarm';
      const toBilling = ${JSON.stringify(toBilling)};
      const mk = (name, script) => new Agent({ model: new ScriptedModel(script), name, retryStrategy: null });
      const triage = mk('Triage agent', [{ text: 'Checking.', toolUses: [toBilling] }]);
      const billing = mk('Billing agent', [{ text: 'never sent', delayMs: 60000 }]);
      const refund = mk('Refund agent', []);
      const sessionManager = new FileSessionManager({ sessionId: 'crash-1', storageDir: ${JSON.stringify(storageDir)} });
      const swarm = new Swarm({ nodes: [triage, billing, refund], sessionManager, id: 'support' });
      swarm.hooks.addCallback(BeforeNodeCallEvent, (e) => { if (e.nodeId === 'Billing agent') setTimeout(() => console.log('BILLING_RUNNING'), 50); });
      await swarm.invoke('I was charged twice');
    `;
    const proc = spawn(
      process.execPath,
      ['--conditions=@skein/source', '--import', 'tsx', '--input-type=module', '-e', child],
      {
        cwd: here,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await new Promise<void>((resolve, reject) => {
      proc.stdout.on('data', (d: Buffer) => {
        if (d.toString().includes('BILLING_RUNNING')) resolve();
      });
      proc.on('exit', (code) => reject(new Error(`child exited early (${code}): ${stderr}`)));
    });
    const exited = new Promise((resolve) => proc.on('exit', (_code, signal) => resolve(signal)));
    proc.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const stateFile = path.join(
      storageDir,
      'session_crash-1',
      'multi_agents',
      'multi_agent_support',
      'multi_agent.json',
    );
    const before = JSON.parse(await fs.readFile(stateFile, 'utf8')) as {
      state: { elapsedMs: number; current: string };
    };
    expect(before.state.current).toBe('Billing agent');

    const sessionManager = new FileSessionManager({ sessionId: 'crash-1', storageDir });
    try {
      const t = team(sessionManager, { billing: ['Refunded the duplicate charge on order 42.'] });
      const result = await t.swarm.invoke('ignored: resuming');
      expect(result.status).toBe('completed');
      expect(result.text).toBe('Refunded the duplicate charge on order 42.');
      expect(result.nodeHistory).toEqual(['Triage agent', 'Billing agent']);
      expect(result.sharedContext).toEqual({ 'Triage agent': { order_id: '42' } });
      expect(result.accumulatedUsage.totalTokens).toBe(30);
      expect(result.executionTimeMs).toBeGreaterThanOrEqual(before.state.elapsedMs);
      expect(result.transitions.map((x) => x.kind)).toEqual(['start', 'handoff', 'resume', 'complete']);
      expect(t.models.triage.requests).toHaveLength(0);
      const sent = t.models.billing.requests[0]?.messages ?? [];
      expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      expect(JSON.stringify(sent[1])).toContain('transfer_to_billing_agent');
      expect(JSON.stringify(sent[2])).toContain('Message from Triage agent: double charge');
      expect(t.agents.billing.messages.at(-1)?.content).toEqual([
        { text: 'Refunded the duplicate charge on order 42.' },
      ]);
    } finally {
      await sessionManager.close();
    }
  }, 60_000);
});
