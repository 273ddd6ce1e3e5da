/**
 * Bad orchestrator session files: a Graph (triage -> refund, the refund waiting for approval) stored
 * by a FileSessionManager, whose `multi_agent.json`, node entries, transitions or member agent files
 * are then truncated, given fields of wrong types or left with gaps; then resumed by a new graph that
 * answers the approval. Rejected: a skein error naming the file or the field, and the store exactly
 * as it was. Accepted: the run completes. Either way nothing outside the root is written.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { Agent, tool, type ModelRequest } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { FileSessionManager } from '@skein/session-file';
import {
  attempt,
  describeError,
  edit,
  ignoreUpdatedAt,
  outsideChanges,
  rejectionProblems,
  sandbox,
  snapshot,
  type FuzzCaseReport,
  type Json,
  type Mutation,
} from './fuzz-support.js';

const GRAPH = 'session_s1/multi_agents/multi_agent_graph';
const REFUND = 'session_s1/agents/agent_graph.refund';

const inState = (label: string, change: (state: Json) => void): Mutation => ({
  name: `multi_agent.json: ${label}`,
  names: /multi_agent\.json|stored run of graph/i,
  apply: (s) =>
    edit(s, `${GRAPH}/multi_agent.json`, (doc) => {
      change(doc['state'] as Json);
      return doc;
    }),
});
const inFile = (rel: string, label: string, change: (doc: Json) => unknown, names = fileOrNode(rel)): Mutation => ({
  name: `${path.basename(rel)}: ${label}`,
  names,
  apply: (s) => edit(s, rel, change),
});
/** A rejection names the file, or (the graph's check of the stored run) the node or the run. */
function fileOrNode(rel: string): RegExp {
  const base = path.basename(rel);
  const node = /^node_(.+)\.json$/.exec(base)?.[1];
  return new RegExp(`${base.replace('.', '\\.')}${node ? `|node "${node}"` : ''}|stored run of graph`);
}
const truncate = (rel: string): Mutation => ({
  name: `${path.basename(rel)} truncated`,
  names: fileOrNode(rel),
  async apply(s, random) {
    const file = path.join(s.root, rel);
    const text = await fs.readFile(file);
    await fs.writeFile(file, text.subarray(0, Math.floor(random() * text.length)));
  },
});

const MUTATIONS: Mutation[] = [
  truncate(`${GRAPH}/multi_agent.json`),
  inFile(`${GRAPH}/multi_agent.json`, 'state a string', (doc) => ({ ...doc, state: 'running' })),
  inState('status unknown', (st) => (st['status'] = 'exploded')),
  inState('status a number', (st) => (st['status'] = 5)),
  inState('task a number', (st) => (st['task'] = 5)),
  inState('waiting a number', (st) => (st['waiting'] = 5)),
  inState('running a list', (st) => (st['running'] = ['refund'])),
  inState('paused a string', (st) => (st['paused'] = 'refund')),
  inState(
    'the pause of refund without interrupts',
    (st) => ((st['paused'] as Json)['refund'] = { sources: ['triage'], stage: 'node' }),
  ),
  inState(
    'the pause of refund with interrupts a number',
    (st) => (((st['paused'] as Json)['refund'] as Json)['interrupts'] = 5),
  ),
  inState(
    'a pause of a node not in the graph',
    (st) => ((st['paused'] as Json)['ghost'] = (st['paused'] as Json)['refund']),
  ),
  inState('usage a string', (st) => (st['usage'] = 'lots')),
  inState('executionCount a string', (st) => (st['executionCount'] = 'one')),
  inState('version from the future', (st) => (st['version'] = 99)),
  truncate(`${GRAPH}/nodes/node_triage.json`),
  inFile(`${GRAPH}/nodes/node_triage.json`, 'an array', () => []),
  inFile(`${GRAPH}/nodes/node_triage.json`, 'result a number', (doc) => ({ ...doc, result: 5 })),
  inFile(`${GRAPH}/nodes/node_triage.json`, 'result.status unknown', (doc) => ({
    ...doc,
    result: { ...(doc['result'] as Json), status: 'weird' },
  })),
  inFile(`${GRAPH}/nodes/node_triage.json`, 'result.text a number', (doc) => ({
    ...doc,
    result: { ...(doc['result'] as Json), text: 5 },
  })),
  inFile(`${GRAPH}/nodes/node_triage.json`, 'order a string', (doc) => ({ ...doc, order: 'first' })),
  {
    name: 'node_triage.json deleted',
    names: /triage|node/i,
    apply: (s) => fs.rm(path.join(s.root, GRAPH, 'nodes/node_triage.json')),
  },
  {
    name: 'a stray node_ghost.json',
    names: /ghost|node/i,
    apply: (s) =>
      fs.copyFile(
        path.join(s.root, GRAPH, 'nodes/node_triage.json'),
        path.join(s.root, GRAPH, 'nodes/node_ghost.json'),
      ),
  },
  truncate(`${GRAPH}/transitions/transition_0.json`),
  {
    name: 'transition_0.json deleted (a gap)',
    names: /transition_0\.json/,
    apply: (s) => fs.rm(path.join(s.root, GRAPH, 'transitions/transition_0.json')),
  },
  inFile(`${GRAPH}/transitions/transition_1.json`, 'seq another number', (doc) => ({ ...doc, seq: 7 })),
  inFile(`${GRAPH}/transitions/transition_1.json`, 'from and to numbers', (doc) => ({ ...doc, from: 5, to: 6 })),
  inFile(
    `${REFUND}/agent.json`,
    'interrupt_state with interrupts a number',
    (doc) => ({
      ...doc,
      _internal_state: {
        interrupt_state: { ...((doc['_internal_state'] as Json)['interrupt_state'] as Json), interrupts: 5 },
      },
    }),
    /agent\.json|interrupt|graph\.refund/i,
  ),
  inFile(
    `${REFUND}/agent.json`,
    'the interrupt_state dropped',
    (doc) => ({ ...doc, _internal_state: {} }),
    /interrupt|refund|answer|waiting/i,
  ),
  truncate(`${REFUND}/messages/message_0.json`),
  {
    name: 'multi_agents is a symlink out of the root',
    names: /multi_agents/,
    async apply(s) {
      const target = path.join(s.outside, 'multi_agents');
      await fs.rename(path.join(s.root, 'session_s1/multi_agents'), target);
      await fs.symlink(target, path.join(s.root, 'session_s1/multi_agents'));
    },
  },
];

/** The number of orchestrator-file cases (seeds cycle through them). */
export const ORCHESTRATOR_FILE_CASES = MUTATIONS.length;

const refundTool = tool({
  name: 'refund',
  description: 'Refunds.',
  inputSchema: z.object({ amount: z.number() }),
  needsApproval: true,
  callback: ({ amount }) => `refunded ${amount}`,
});

/** The refund agent asks for the refund, and answers once it has the tool's result (a function of the request, so a fresh process answers alike). */
const refundTurn = (request: ModelRequest): ScriptedTurn =>
  request.messages.at(-1)?.content.some((b) => 'toolResult' in b)
    ? 'Refunded.'
    : { toolUses: [{ name: 'refund', input: { amount: 80 } }] };

function graph(sessionManager: FileSessionManager): ReturnType<GraphBuilder['build']> {
  return new GraphBuilder()
    .addNode(new Agent({ name: 'triage', model: new ScriptedModel(['Refund 80 EUR.'], { loop: true }) }), 'triage')
    .addNode(
      new Agent({ name: 'refund', model: new ScriptedModel([refundTurn], { loop: true }), tools: [refundTool] }),
      'refund',
    )
    .addEdge('triage', 'refund')
    .setSessionManager(sessionManager)
    .build();
}

/** One case: the seed picks the mutation (cycling) and its details. */
export async function orchestratorFileCase(seed: number, random: () => number): Promise<FuzzCaseReport> {
  const mutation = MUTATIONS[seed % MUTATIONS.length]!;
  const s = await sandbox();
  const violations: string[] = [];
  let outcome: FuzzCaseReport['outcome'] = 'accepted';
  let error: string | undefined;
  try {
    const first = new FileSessionManager({ sessionId: 's1', storageDir: s.root });
    const paused = await graph(first).invoke('I want my money back');
    await first.close();
    const interruptId = paused.interrupts?.[0]?.id;
    if (paused.status !== 'interrupted' || interruptId === undefined)
      throw new Error(`the setup run did not pause (${paused.status})`);
    await mutation.apply(s, random);
    const before = await snapshot(s.parent, ignoreUpdatedAt);
    const again = new FileSessionManager({ sessionId: 's1', storageDir: s.root });
    let status: string | undefined;
    let reason: string | undefined;
    const failure = await attempt(async () => {
      const result = await graph(again).invoke([{ interruptResponse: { interruptId, response: { approved: true } } }]);
      status = result.status;
      reason = Object.values(result.results)
        .flatMap((r) => (r.error ? [`${r.nodeId}: ${r.error}`] : []))
        .join('; ');
    });
    await again.close();
    const after = await snapshot(s.parent, ignoreUpdatedAt);
    violations.push(...outsideChanges(before, after, s.parent, s.root));
    if (failure !== undefined) {
      outcome = 'rejected';
      error = describeError(failure);
      violations.push(...rejectionProblems(failure, mutation.names, before, after, 'resume'));
    } else if (status !== 'completed') {
      error = `resumed to status ${status}${reason ? ` (${reason})` : ''}`;
    }
  } finally {
    await s.remove();
  }
  return { category: 'orchestrator files', name: mutation.name, outcome, ...(error ? { error } : {}), violations };
}
