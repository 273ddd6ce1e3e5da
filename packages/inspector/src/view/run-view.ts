import type { NodeTransition } from '@skein/core';
import { placeExecutions, settleOpenExecutions, strandsExecutions, time } from './execution-timeline.js';
import { messagesText } from './message-text.js';
import { nodeResults } from './node-results.js';
import { runTokens } from './run-tokens.js';
import { waitsOf } from './waits.js';
import type { NodeExecution, RunView } from './run-types.js';
import { shapeOf } from './run-shape.js';
import type { OrchestratorView } from './session-view.js';

/**
 * Builds the run's timeline from its transitions: a transition into a node opens an execution at its
 * time; the next transition out of that node closes it. Executions still open at the end take their
 * duration from the node's stored result when the run finished, else they are running (or stopped).
 */
export function runView(run: OrchestratorView): RunView {
  const transitions = [...run.transitions].sort((a, b) => a.seq - b.seq);
  const results = nodeResults(run);
  const t0 = transitions.length > 0 ? time(transitions[0] as NodeTransition) : 0;
  const { executions, open, waiting } = placeExecutions(transitions, t0);
  settleOpenExecutions(run, open, results);
  if (transitions.length === 0 && run.strands) executions.push(...strandsExecutions(run, results));
  const last = new Map<string, NodeExecution>();
  for (const exec of executions) last.set(exec.nodeId, exec);
  for (const [nodeId, exec] of last) exec.tokens = results[nodeId]?.tokens;
  const tokens = run.tokens ?? runTokens([], run.state);
  const end = transitions.length > 0 ? time(transitions[transitions.length - 1] as NodeTransition) - t0 : 0;
  const spanMs = Math.max(end, ...executions.map((e) => e.startMs + (e.durationMs ?? 0)));
  return {
    waits: waitsOf(transitions, executions, t0, spanMs),
    id: run.id,
    type: run.type,
    status: run.status,
    task: taskText(run),
    totalTokens: tokens?.tokens,
    tokensCounted: tokens?.counted,
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
