/**
 * A remote A2A agent (a skein agent served by @skein/a2a) as a Graph node and as a Swarm member that
 * receives a handoff: the node's input / the handed-off history is the message, the answer ends the
 * node or the member's turn, and the remote approval is an interrupt at the node's path.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, tool, type SessionManager } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { serveA2A, RemoteAgent, type A2AServer } from '@skein/a2a';
import { FileSessionManager } from '@skein/session-file';
import { Swarm } from '@skein/swarm';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

const servers: A2AServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** A refund service: the messages it got, the refunds it made, and the server. */
async function refundService(options: { delayMs?: number } = {}) {
  const got: string[] = [];
  const refunds: string[] = [];
  const issueRefund = tool({
    name: 'issue_refund',
    description: 'Refunds an order.',
    inputSchema: z.object({ orderId: z.string(), amountEur: z.number() }),
    needsApproval: ({ amountEur }) => amountEur > 50,
    callback: ({ orderId, amountEur }) => (refunds.push(`${orderId}:${amountEur}`), `refunded ${amountEur} EUR`),
  });
  const server = await serveA2A({
    agent: (sessionManager: SessionManager) =>
      new Agent({
        name: 'refund',
        description: 'Refunds orders.',
        tools: [issueRefund],
        sessionManager,
        model: new ScriptedModel(
          [
            (request) => {
              const last = request.messages.at(-1);
              const result = last?.content.find((b) => 'toolResult' in b);
              if (result && 'toolResult' in result)
                return result.toolResult.status === 'success' ? 'Refunded 80 EUR for order 7.' : 'No refund was made.';
              got.push(last?.content.map((b) => ('text' in b ? b.text : '')).join('') ?? '');
              const amount = /(\d+) EUR/.exec(got.at(-1) ?? '')?.[1] ?? '80';
              return {
                toolUses: [
                  { name: 'issue_refund', input: { orderId: '7', amountEur: Number(amount) }, toolUseId: 'r1' },
                ],
                delayMs: options.delayMs ?? 0,
              };
            },
          ],
          { loop: true },
        ),
      }),
  });
  servers.push(server);
  return { server, got, refunds };
}

describe('a remote agent as a Graph node', () => {
  it('runs with the node input as its message; its approval is an interrupt at the node path, answered across the boundary', async () => {
    const { server, got, refunds } = await refundService();
    const triage = new Agent({ name: 'triage', model: new ScriptedModel(['ROUTE: refund, order 7, 80 EUR']) });
    const summary = new Agent({
      name: 'summary',
      model: new ScriptedModel([
        (r) =>
          `Summary: ${
            r.messages
              .at(-1)
              ?.content.map((b) => ('text' in b ? b.text : ''))
              .join('')
              .split('- refund: ')[1] ?? '?'
          }`,
      ]),
    });
    const graph = new GraphBuilder()
      .addNode(triage, 'triage')
      .addNode(new RemoteAgent({ name: 'refund', url: server.url }).asAgent(), 'refund')
      .addNode(summary, 'summary')
      .addEdge('triage', 'refund')
      .addEdge('refund', 'summary')
      .build();
    const paused = await graph.invoke('Please refund order 7');
    expect(paused.status).toBe('interrupted');
    const [ask] = paused.interrupts ?? [];
    expect(ask).toMatchObject({ name: 'approval', source: 'refund' });
    expect(ask?.reason).toMatchObject({
      tool: 'issue_refund',
      input: { orderId: '7', amountEur: 80 },
      remote: { agent: 'refund' },
    });
    expect(got).toEqual([
      'Original Task: Please refund order 7\n\nInputs from previous nodes:\n\nFrom triage:\n  - triage: ROUTE: refund, order 7, 80 EUR',
    ]);
    expect(refunds).toEqual([]);
    const done = await graph.invoke([
      { interruptResponse: { interruptId: ask?.id ?? '', response: { approved: true } } },
    ]);
    expect(done.status).toBe('completed');
    expect(done.results['refund']?.text).toBe('Refunded 80 EUR for order 7.');
    expect(done.results['summary']?.text).toBe('Summary: Refunded 80 EUR for order 7.');
    expect(refunds).toEqual(['7:80']);
  });

  it('a caller graph stopped mid-call resumes the remote task from its session instead of sending again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'a2a-graph-'));
    dirs.push(dir);
    const { server, got } = await refundService({ delayMs: 400 });
    const build = (sm: FileSessionManager) =>
      new GraphBuilder()
        .setSessionManager(sm)
        .addNode(
          new RemoteAgent({ name: 'refund', url: server.url, sessionManager: sm, pollIntervalMs: 20 }).asAgent(),
          'refund',
        )
        .build();
    const first = new FileSessionManager({ sessionId: 'case-1', storageDir: dir });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 200);
    const cut = await build(first).invoke('Refund order 7, 30 EUR', { signal: stop.signal });
    expect(cut.status).toBe('interrupted');
    await first.close();
    const second = new FileSessionManager({ sessionId: 'case-1', storageDir: dir });
    const resumed = await build(second).invoke('ignored: the stored run resumes');
    await second.close();
    expect(resumed.status).toBe('completed');
    expect(resumed.results['refund']?.text).toBe('Refunded 80 EUR for order 7.');
    expect(got).toEqual(['Refund order 7, 30 EUR']);
  });

  it('a failed remote call fails the node with a RemoteAgentError naming agent and cause', async () => {
    const closed = createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    const remote = new RemoteAgent({ name: 'refund', url: `http://127.0.0.1:${port}`, retryStrategy: null });
    const graph = new GraphBuilder().addNode(remote.asAgent(), 'refund').build();
    const result = await graph.invoke('hi');
    expect(result.status).toBe('failed');
    expect(result.failureReason).toMatch(
      new RegExp(
        `^Node refund failed: Remote agent refund \\(http://127.0.0.1:${port}\\): cannot fetch its card at .*ECONNREFUSED`,
      ),
    );
  });
});

describe('a remote agent as a Swarm member', () => {
  it('receives a handoff (the filtered history is its message) and its answer ends the run', async () => {
    const { server, got } = await refundService();
    const triage = new Agent({
      name: 'triage',
      model: new ScriptedModel([
        {
          text: 'A refund, then.',
          toolUses: [{ name: 'transfer_to_refund', input: { message: 'order 7, 20 EUR' }, toolUseId: 'h1' }],
        },
      ]),
    });
    const refund = new RemoteAgent({ name: 'refund', url: server.url, description: 'Refunds orders.' }).asAgent();
    const swarm = new Swarm({ nodes: [triage, refund] });
    const result = await swarm.invoke('I want my money back for order 7');
    expect(result.status).toBe('completed');
    expect(result.nodeHistory).toEqual(['triage', 'refund']);
    expect(result.text).toBe('Refunded 80 EUR for order 7.');
    expect(got).toHaveLength(1);
    expect(got[0]).toMatch(
      /^user: I want my money back for order 7\n\nassistant: A refund, then\.\n\nuser: \[Transfer\] triage handed this conversation to you \(refund\)\..*order 7, 20 EUR/s,
    );
  });
});

describe('a remote agent as a tool, under a run-tree budget', () => {
  it('counts the call as a tool call and a model call with the tokens the server reports; a spent budget does not call', async () => {
    const { server, got } = await refundService();
    const remote = new RemoteAgent({ name: 'refund', url: server.url });
    const agent = new Agent({
      name: 'desk',
      tools: [remote.asTool()],
      model: new ScriptedModel(
        [
          (r) => {
            const result = r.messages.at(-1)?.content.find((b) => 'toolResult' in b);
            if (result && 'toolResult' in result)
              return `desk: ${result.toolResult.content.map((c) => ('text' in c ? c.text : '')).join('')}`;
            return { toolUses: [{ name: 'refund', input: { input: 'order 7, 10 EUR' }, toolUseId: 't1' }] };
          },
        ],
        { loop: true },
      ),
    });
    const result = await agent.invoke('refund please', { budget: { modelCalls: 10 } });
    expect(String(result)).toBe('desk: Refunded 80 EUR for order 7.');
    const tool = result.usage?.children.find((c) => c.kind === 'tool');
    expect(tool?.name).toBe('refund');
    expect(tool?.spend).toMatchObject({ modelCalls: 1, totalTokens: 30 });
    const spent = await agent.invoke('again', { budget: { modelCalls: 1 } });
    expect(spent.stopReason).toBe('budget_exceeded');
    const refused = agent.messages;
    expect(JSON.stringify(refused.at(-1))).toMatch(
      /refund was not asked: the run's modelCalls budget is spent \(1 of 1\)/,
    );
    expect(got).toHaveLength(1);
  });
});
