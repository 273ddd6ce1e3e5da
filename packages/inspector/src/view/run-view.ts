import type { JsonObject, JsonValue, NodeTransition } from '@skein/core';
import type { Message } from '@skein/core';
import { messagesText, messageText } from './message-text.js';
import type { OrchestratorView } from './session-view.js';

/** One execution of a node, placed on the run's clock. */
export interface NodeExecution {
  nodeId: string;
  /** ms since the run's first transition. */
  startMs: number;
  /** Undefined while it runs (or when the run stopped inside it). */
  durationMs: number | undefined;
  /** `completed`, `failed`, `running`, `interrupted`, or `stopped` (a crash or cancellation ended the run inside it). */
  status: string;
  tokens: number | undefined;
  /** The transition that started it. */
  via: NodeTransition;
}

/** A graph's shape, when the run stored it. */
export interface GraphShape {
  nodes: string[];
  /** `join`: the edge is one source of a join (the target waits for all of them). */
  edges: { from: string; to: string; conditional: boolean; join?: boolean }[];
  entryPoints: string[];
}

/** An orchestrator's run, ready to draw. */
export interface RunView {
  id: string;
  type: string;
  status: string;
  task: string;
  totalTokens: number | undefined;
  /** Wall time from the first to the last transition, in ms. */
  spanMs: number;
  executions: NodeExecution[];
  transitions: NodeTransition[];
  handoffs: NodeTransition[];
  /** Interrupts with no later resume: waiting for an answer. */
  waiting: NodeTransition[];
  /** Resumes of the run after a crash or an interrupt. */
  resumes: NodeTransition[];
  /** Nodes and edges: the stored shape, or the path taken. */
  shape: GraphShape;
  /** Each node's latest result, by node id. */
  results: Record<string, NodeResultView>;
}

/** A node's latest stored result. */
export interface NodeResultView {
  status: string;
  text: string;
  tokens: number | undefined;
  executionTimeMs: number | undefined;
  executionCount: number | undefined;
  error?: string;
}

const OPENING = new Set(['start', 'edge', 'handoff', 'resume', 'join']);

const num = (v: JsonValue | undefined): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;
const obj = (v: JsonValue | undefined): JsonObject | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
const str = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');

/** The latest result of each node: a graph entry `{ result }`, a swarm entry (the result itself), or Strands' `node_results`. */
function nodeResults(run: OrchestratorView): Record<string, NodeResultView> {
  const out: Record<string, NodeResultView> = {};
  const add = (id: string, r: JsonObject): void => {
    const usage = obj(r['usage']) ?? obj(r['accumulated_usage']);
    const message = obj(obj(r['result'])?.['message']);
    const view: NodeResultView = {
      status: str(r['status']).toLowerCase() || 'unknown',
      text: str(r['text']) || (Array.isArray(message?.['content']) ? messageText(message as unknown as Message) : ''),
      tokens: num(usage?.['totalTokens']),
      executionTimeMs: num(r['executionTimeMs']) ?? num(r['execution_time']),
      executionCount: num(r['executionCount']) ?? num(r['execution_count']),
    };
    if (typeof r['error'] === 'string') view.error = r['error'];
    out[id] = view;
  };
  for (const [id, entry] of Object.entries(run.nodes)) {
    if (id.startsWith('run.')) continue;
    add(id, obj(entry['result']) ?? entry);
  }
  const strandsResults = obj(run.state['node_results']);
  if (run.strands && strandsResults)
    for (const [id, r] of Object.entries(strandsResults)) if (obj(r)) add(id, obj(r) as JsonObject);
  return out;
}

/** The stored graph shape, or the nodes (a swarm's stored members, and every node that ran) and the edges the transitions show. */
function shapeOf(run: OrchestratorView, transitions: NodeTransition[]): GraphShape {
  // A graph stores its shape once per run in its run document (older versions: in every state document).
  const stored = obj(run.runDocument?.['shape']) ?? obj(run.state['shape']);
  if (stored && Array.isArray(stored['nodes']) && Array.isArray(stored['edges'])) {
    return {
      nodes: stored['nodes'].filter((n): n is string => typeof n === 'string'),
      edges: stored['edges'].flatMap((e) => {
        const o = obj(e);
        return o && typeof o['from'] === 'string' && typeof o['to'] === 'string'
          ? [{ from: o['from'], to: o['to'], conditional: o['conditional'] === true, join: o['join'] === true }]
          : [];
      }),
      entryPoints: Array.isArray(stored['entryPoints'])
        ? stored['entryPoints'].filter((n): n is string => typeof n === 'string')
        : [],
    };
  }
  // A swarm stores its members (once per run in its run document; older versions in every state
  // document): every agent is drawn, the handoffs taken are the edges.
  const listed = run.runDocument?.['members'] ?? run.state['members'];
  const members = Array.isArray(listed) ? listed.filter((n): n is string => typeof n === 'string') : [];
  const nodes = new Set<string>([...members, ...Object.keys(nodeResults(run))]);
  const edges = new Map<string, { from: string; to: string; conditional: boolean }>();
  const entryPoints = new Set<string>();
  for (const t of transitions) {
    if (t.to !== null) nodes.add(t.to);
    if (t.from !== null) nodes.add(t.from);
    if (t.from === null && t.to !== null && t.kind === 'start') entryPoints.add(t.to);
    if (t.from !== null && t.to !== null && t.from !== t.to)
      edges.set(`${t.from}->${t.to}`, { from: t.from, to: t.to, conditional: false });
  }
  return { nodes: [...nodes], edges: [...edges.values()], entryPoints: [...entryPoints] };
}

const time = (t: NodeTransition): number => Date.parse(t.at);

/**
 * Builds the run's timeline from its transitions: a transition into a node opens an execution at its
 * time; the next transition out of that node closes it. Executions still open at the end take their
 * duration from the node's stored result when the run finished, else they are running (or stopped).
 */
export function runView(run: OrchestratorView): RunView {
  const transitions = [...run.transitions].sort((a, b) => a.seq - b.seq);
  const results = nodeResults(run);
  const t0 = transitions.length > 0 ? time(transitions[0] as NodeTransition) : 0;
  const executions: NodeExecution[] = [];
  const open = new Map<string, NodeExecution[]>();
  const waiting: NodeTransition[] = [];
  for (const t of transitions) {
    if (t.kind === 'interrupt') waiting.push(t);
    if (t.kind === 'resume') {
      waiting.length = 0;
      // The run stopped (a crash, a cancellation, an interrupt) while these ran; they start over now.
      for (const exec of t.to === null ? [...open.values()].flat() : (open.get(t.to) ?? [])) {
        exec.durationMs = Math.max(0, time(t) - t0 - exec.startMs);
        exec.status = 'stopped';
      }
      if (t.to === null) open.clear();
      else open.delete(t.to);
    }
    if (t.from !== null && t.kind !== 'resume') {
      const exec = open.get(t.from)?.shift();
      if (exec) {
        exec.durationMs = Math.max(0, time(t) - t0 - exec.startMs);
        exec.status = t.kind === 'fail' ? 'failed' : t.kind === 'interrupt' ? 'interrupted' : 'completed';
      }
    }
    if (t.to !== null && OPENING.has(t.kind)) {
      const exec: NodeExecution = {
        nodeId: t.to,
        startMs: Math.max(0, time(t) - t0),
        durationMs: undefined,
        status: 'running',
        tokens: undefined,
        via: t,
      };
      executions.push(exec);
      open.set(t.to, [...(open.get(t.to) ?? []), exec]);
    }
  }
  const finished = run.status === 'completed' || run.status === 'failed';
  for (const [nodeId, list] of open) {
    for (const exec of list) {
      const result = results[nodeId];
      if (finished && result?.executionTimeMs !== undefined) {
        exec.durationMs = result.executionTimeMs;
        exec.status = result.status;
      } else if (run.status !== 'executing') exec.status = run.status === 'interrupted' ? 'interrupted' : 'stopped';
    }
  }
  if (transitions.length === 0 && run.strands) executions.push(...strandsExecutions(run, results));
  const last = new Map<string, NodeExecution>();
  for (const exec of executions) last.set(exec.nodeId, exec);
  for (const [nodeId, exec] of last) exec.tokens = results[nodeId]?.tokens;
  const usage = obj(run.state['usage']);
  const end = transitions.length > 0 ? time(transitions[transitions.length - 1] as NodeTransition) - t0 : 0;
  const spanMs = Math.max(end, ...executions.map((e) => e.startMs + (e.durationMs ?? 0)));
  return {
    id: run.id,
    type: run.type,
    status: run.status,
    task: taskText(run),
    totalTokens: num(usage?.['totalTokens']),
    spanMs,
    executions,
    transitions,
    handoffs: transitions.filter((t) => t.kind === 'handoff'),
    waiting,
    resumes: transitions.filter((t) => t.kind === 'resume'),
    shape: shapeOf(run, transitions),
    results,
  };
}

function taskText(run: OrchestratorView): string {
  const task = run.state['task'] ?? run.state['current_task'];
  if (typeof task === 'string') return task;
  const entry = run.nodes['run.task'];
  if (entry) return messagesText(entry['messages']);
  return task === undefined ? '' : JSON.stringify(task).slice(0, 200);
}

/**
 * Strands Agents stores no transitions: its execution order (a graph's `execution_order`, a swarm's
 * `node_history`) placed end to end, each as long as its stored execution time.
 */
function strandsExecutions(run: OrchestratorView, results: Record<string, NodeResultView>): NodeExecution[] {
  const order = run.state['execution_order'] ?? run.state['node_history'];
  if (!Array.isArray(order)) return [];
  let clock = 0;
  return order.flatMap((entry, seq) => {
    const nodeId = typeof entry === 'string' ? entry : str(obj(entry)?.['node_id']);
    if (nodeId === '') return [];
    const result = results[nodeId];
    const via: NodeTransition = {
      seq,
      from: null,
      to: nodeId,
      kind: 'strands',
      reason: 'execution order stored by Strands Agents',
      at: '',
    };
    const exec: NodeExecution = {
      nodeId,
      startMs: clock,
      durationMs: result?.executionTimeMs,
      status: result?.status ?? 'completed',
      tokens: result?.tokens,
      via,
    };
    clock += result?.executionTimeMs ?? 0;
    return [exec];
  });
}
