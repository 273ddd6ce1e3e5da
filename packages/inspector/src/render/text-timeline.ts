import type { SessionView } from '../view/session-view.js';
import type { RunView } from '../view/run-types.js';
import { statusColour, type Paint } from './ansi.js';
import { handoffReceived } from './handoff-received.js';

const ms = (n: number | undefined): string =>
  n === undefined ? '…' : n < 1000 ? `${Math.round(n)} ms` : `${(n / 1000).toFixed(2)} s`;

/** `  by <model>` (with answer counts when several models answered), or nothing when the result does not say. */
function modelsText(models: Record<string, number> | undefined): string {
  const ids = Object.keys(models ?? {});
  if (ids.length === 0) return '';
  return `  by ${ids.length === 1 ? ids[0] : ids.map((id) => `${id} x${models?.[id]}`).join(', ')}`;
}

/**
 * A nested orchestrator's executions as lanes below the node of `parent` that runs it (a swarm in
 * graph node `desk`: `desk/frontline`, `desk/refund`), placed on the parent's clock.
 */
function nestedLanes(nested: RunView, at: number, indent: string, paint: Paint, runs: readonly RunView[]): string[] {
  const out: string[] = [];
  for (const exec of nested.executions) {
    const colour = statusColour(paint, exec.status);
    out.push(
      `${indent}  ${paint.dim(`+${ms(at + exec.startMs)}`)}  ${paint.cyan(
        `${nested.id}/${exec.nodeId}`,
      )}  ${colour(exec.status)}  ${ms(exec.durationMs)}`,
    );
    const deeper = runs.find((r) => r !== nested && r.id === exec.nodeId);
    if (deeper) out.push(...nestedLanes(deeper, at + exec.startMs, `${indent}  `, paint, runs));
  }
  return out;
}

/** An orchestrator's run as lines: each node execution, handoffs, resumes and open interrupts. */
function renderRun(run: RunView, paint: Paint, runs: readonly RunView[] = []): string {
  const out: string[] = [];
  const status = statusColour(paint, run.status)(run.status);
  out.push(
    `${paint.bold(`${run.type} ${run.id}`)}  ${status}  ${
      run.executions.length
    } node executions  ${run.totalTokens ?? '-'} tokens  ${ms(run.spanMs)}`,
  );
  if (run.task) out.push(`  task: ${run.task.length > 160 ? `${run.task.slice(0, 159)}…` : run.task}`);
  // Strands Agents stores no transitions: its executions carry their own.
  const steps = run.transitions.length > 0 ? run.transitions : run.executions.map((e) => e.via);
  for (const t of steps) {
    const at = paint.dim(`#${t.seq}`);
    const exec = run.executions.find((e) => e.via === t);
    // A resume that re-opened a node is that node's line (`resume: answered approval`), not a second one.
    if (t.kind === 'resume' && !exec) out.push(`  ${at} ${paint.yellow('resume')}  ${t.reason}`);
    else if (t.kind === 'interrupt')
      out.push(`  ${at} ${paint.yellow('interrupt')} at ${t.from ?? t.to ?? '?'}: ${t.reason}`);
    else if (t.to === null) out.push(`  ${at} ${t.kind} from ${t.from ?? '-'}: ${t.reason}`);
    if (!exec) continue;
    const colour = statusColour(paint, exec.status);
    const tokens = exec.tokens === undefined ? '' : `  ${exec.tokens} tokens`;
    const result = run.results[exec.nodeId];
    const cache = result?.cache ? ` (cache: ${result.cache.read} read, ${result.cache.write} written)` : '';
    const models = `${cache}${modelsText(result?.models)}`;
    const why =
      t.kind === 'strands'
        ? t.reason
        : t.kind === 'handoff'
          ? `handoff from ${t.from ?? '-'}: "${t.reason}" ${handoffReceived(t)}`.trimEnd()
          : `${t.kind}${t.from ? ` from ${t.from}` : ''}: ${t.reason}`;
    out.push(
      `  ${at} ${paint.dim(`+${ms(exec.startMs)}`)}  ${paint.cyan(exec.nodeId)}  ${colour(exec.status)}  ${ms(
        exec.durationMs,
      )}${tokens}${models}  ${paint.dim(why)}`,
    );
    // A node that is an orchestrator of this session: its members or nodes as nested lanes.
    const nested = runs.find((r) => r !== run && r.id === exec.nodeId);
    if (nested && exec.via === lastExecutionOf(run, exec.nodeId)?.via)
      out.push(...nestedLanes(nested, exec.startMs, '    ', paint, runs));
  }
  for (const w of run.waiting) out.push(`  ${paint.yellow('waiting for an answer')}: ${w.reason}`);
  for (const [id, r] of Object.entries(run.results))
    if (r.error) out.push(`  ${paint.red(`${id} failed`)}: ${r.error}`);
  return `${out.join('\n')}\n`;
}

/** The last execution of `nodeId` in `run` (a nested orchestrator's stored run is its last one). */
function lastExecutionOf(run: RunView, nodeId: string): RunView['executions'][number] | undefined {
  return run.executions.filter((e) => e.nodeId === nodeId).at(-1);
}

/** `skein show`: the session's runs (or its agents when it has none), and what could not be read. */
export function renderSession(session: SessionView, runs: readonly RunView[], paint: Paint): string {
  const out: string[] = [
    `${paint.bold(`session ${session.id}`)}  ${paint.dim(session.type)}  updated ${session.updatedAt ?? '-'}`,
  ];
  for (const run of runs) out.push(renderRun(run, paint, runs));
  if (runs.length === 0) {
    for (const a of session.agents)
      out.push(`  agent ${paint.cyan(a.id)}  updated ${a.updatedAt ?? '-'}  (--agent ${a.id} prints its conversation)`);
  }
  const problems = [
    ...session.problems,
    ...session.agents.flatMap((a) => a.problems),
    ...session.orchestrators.flatMap((o) => o.problems),
  ];
  for (const p of problems) out.push(paint.red(`  ! ${p.where}: ${p.message}`));
  return `${out.join('\n')}\n`;
}
