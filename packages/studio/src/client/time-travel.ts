/**
 * Time travel on the page: a step slider over the conversation's history (`GET .../history`), the
 * graph lit as it stood at the chosen step, and "fork here": a node's result edited (prefilled from
 * `GET .../history/{step}`) forks a new conversation (`POST .../fork`) that the page then runs live.
 */
import { getJson, postJson } from './api.js';
import { el } from './dom.js';
import type { GraphView } from './graph-view.js';

/** One step as `GET .../history` lists it: a graph's sets of nodes, or a swarm's current member and the members that ran. */
interface RawStep {
  step: number;
  run: number;
  status: string;
  running?: string[];
  waiting?: string[];
  paused?: string[] | string;
  completed?: string[];
  failed?: string[];
  current?: string;
  nodeHistory?: string[];
  transitions?: { from?: string | null; kind?: string; details?: { guardrail?: string; reason?: string } }[];
}

/** A step as the panel shows it (a swarm's put in a graph's terms: the members that ran are done, the current one is next). */
interface Step {
  step: number;
  run: number;
  status: string;
  running: string[];
  waiting: string[];
  paused: string[];
  completed: string[];
  failed: string[];
  /** Nodes a guardrail blocked in the step's run up to it, with what to say of each. */
  blocked: Map<string, string>;
}

/** What the panel needs of the page. */
export interface TimeTravelHost {
  base: string;
  conversationId(): string;
  graph: GraphView;
  /** Opens the forked conversation and runs it. */
  openFork(conversationId: string): Promise<void>;
  say(text: string): void;
}

/** The nodes a guardrail blocked in this step (its `guardrail` transitions). */
function tripsOf(raw: RawStep): [string, string][] {
  return (raw.transitions ?? [])
    .filter((t) => t.kind === 'guardrail' && typeof t.from === 'string')
    .map((t) => [t.from as string, `blocked by ${t.details?.guardrail ?? 'a guardrail'}: ${t.details?.reason ?? ''}`]);
}

/** Steps as the panel shows them, each with the trips of its run so far. */
function normalizeAll(raws: RawStep[]): Step[] {
  let run: number | undefined;
  let blocked = new Map<string, string>();
  return raws.map((raw) => {
    if (raw.run !== run) {
      run = raw.run;
      blocked = new Map();
    }
    blocked = new Map([...blocked, ...tripsOf(raw)]);
    return { ...normalize(raw), blocked };
  });
}

function normalize(raw: RawStep): Omit<Step, 'blocked'> {
  const paused = Array.isArray(raw.paused) ? raw.paused : raw.paused ? [raw.paused] : [];
  if (Array.isArray(raw.completed))
    return {
      ...raw,
      running: raw.running ?? [],
      waiting: raw.waiting ?? [],
      paused,
      completed: raw.completed,
      failed: raw.failed ?? [],
    };
  const ran = [...new Set(raw.nodeHistory ?? [])];
  const next = raw.status === 'executing' && raw.current ? [raw.current] : [];
  return { ...raw, running: [], waiting: next, paused, completed: ran.filter((m) => !next.includes(m)), failed: [] };
}

const litAt = (graph: GraphView, step: Step): void => {
  graph.reset();
  for (const n of step.completed) graph.light(n, 'completed');
  for (const n of step.failed) graph.light(n, 'failed');
  for (const [n, detail] of step.blocked) graph.light(n, 'blocked', detail);
  for (const n of step.running) graph.light(n, 'running');
  for (const n of step.paused) graph.light(n, 'waiting');
};

const words = (s: Step): string =>
  `Step ${s.step} (run ${s.run}, ${s.status}): done ${s.completed.join(', ') || 'nothing'}${s.waiting.length ? `; next ${s.waiting.join(', ')}` : ''}${s.paused.length ? `; waits for a person at ${s.paused.join(', ')}` : ''}`;

/** The time-travel panel (see the module comment); `refresh()` after each turn. */
export function timeTravelPanel(host: TimeTravelHost): { element: HTMLElement; refresh(): Promise<void> } {
  const slider = el('input', { type: 'range', id: 'step', min: '0', max: '0', value: '0', disabled: '' });
  const said = el('output', { for: 'step', id: 'step-words' }, 'No steps yet.');
  const node = el('select', { id: 'fork-node' });
  const result = el('textarea', { id: 'fork-result', rows: '3' });
  const fork = el('button', { type: 'submit', id: 'fork' }, 'Fork here and run');
  const form = el(
    'form',
    { id: 'fork-form', hidden: '' },
    el('label', { for: 'fork-node' }, 'Node whose result to change'),
    node,
    el('label', { for: 'fork-result' }, 'Its new result'),
    result,
    fork,
  );
  const element = el(
    'section',
    { 'aria-labelledby': 'tt-title', class: 'panel' },
    el('h2', { id: 'tt-title' }, 'Time travel'),
    el('label', { for: 'step' }, 'Step'),
    slider,
    said,
    form,
  );
  let steps: Step[] = [];
  const chosen = (): Step | undefined => steps[Number(slider.value)];
  const url = (tail: string): string => `${host.base}/${encodeURIComponent(host.conversationId())}${tail}`;

  const prefill = async (): Promise<void> => {
    const step = chosen();
    if (!step || !node.value) return;
    const { state } = await getJson<{ state: { results: Record<string, { text?: string }> } }>(
      url(`/history/${step.step}`),
    );
    result.value = state.results[node.value]?.text ?? '';
  };
  const show = async (): Promise<void> => {
    const step = chosen();
    if (!step) return;
    said.value = words(step);
    slider.setAttribute('aria-valuetext', words(step));
    litAt(host.graph, step);
    node.replaceChildren(...step.completed.map((n) => el('option', { value: n }, n)));
    form.hidden = step.completed.length === 0;
    await prefill();
  };
  slider.addEventListener('input', () => void show());
  node.addEventListener('change', () => void prefill());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const step = chosen();
    if (!step) return;
    const to = `${host.conversationId()}-fork-${Date.now().toString(36)}`;
    fork.disabled = true;
    postJson<{ conversationId: string; changes: string[] }>(url('/fork'), {
      step: step.step,
      to,
      edit: { results: { [node.value]: result.value } },
    })
      .then(async (made) => {
        host.say(
          `Forked at step ${step.step}: ${made.changes.join('; ') || 'no change'}. Running ${made.conversationId}.`,
        );
        await host.openFork(made.conversationId);
      })
      .catch((error: unknown) => host.say(`Fork failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (fork.disabled = false));
  });

  return {
    element,
    refresh: async () => {
      const raws = (await getJson<{ steps: RawStep[] }>(url('/history')).catch(() => ({ steps: [] }))).steps;
      steps = normalizeAll(raws);
      slider.max = String(Math.max(0, steps.length - 1));
      slider.value = slider.max;
      slider.disabled = steps.length === 0;
      if (steps.length === 0) {
        said.value = 'No steps yet.';
        form.hidden = true;
        return;
      }
      await show();
    },
  };
}
