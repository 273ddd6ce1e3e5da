/**
 * Time travel on the page: a step slider over the conversation's history (`GET .../history`), the
 * graph lit as it stood at the chosen step, and "fork here": one edit (a node's result, an agent's
 * last message, a tool result, an agent's state, the task, a handoff's context; see `fork-edits.ts`),
 * prefilled from `GET .../history/{step}`, forks a new conversation (`POST .../fork`) that the page
 * then runs live.
 */
import { getJson, postJson } from './api.js';
import { el } from './dom.js';
import { EDIT_KINDS, editOf, editPrefill, editTargets, type EditKind, type StepState } from './fork-edits.js';
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
  const what = el('select', { id: 'fork-what' });
  const node = el('select', { id: 'fork-node' });
  const nodeLabel = el('label', { for: 'fork-node' }, 'Which one');
  const result = el('textarea', { id: 'fork-result', rows: '3' });
  const fork = el('button', { type: 'submit', id: 'fork' }, 'Fork here and run');
  const form = el(
    'form',
    { id: 'fork-form', hidden: '' },
    el('label', { for: 'fork-what' }, 'What to change'),
    what,
    nodeLabel,
    node,
    el('label', { for: 'fork-result' }, 'Its new value'),
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
  /** The chosen step's state (what the edits offer and prefill from). */
  let state: StepState = {};
  const chosen = (): Step | undefined => steps[Number(slider.value)];
  const url = (tail: string): string => `${host.base}/${encodeURIComponent(host.conversationId())}${tail}`;
  const kind = (): EditKind => what.value as EditKind;
  let wanted: EditKind = 'results';
  let showing = 0;

  /** Offers what the chosen kind can name at this step, and prefills the value. */
  const fillTargets = (): void => {
    const targets = editTargets(kind(), state, chosen()?.completed ?? []);
    node.replaceChildren(...targets.map((t) => el('option', { value: t.id }, t.label)));
    node.hidden = nodeLabel.hidden = kind() === 'task';
    result.value = editPrefill(kind(), state, node.value);
  };
  const show = async (): Promise<void> => {
    const step = chosen();
    if (!step) return;
    said.value = words(step);
    slider.setAttribute('aria-valuetext', words(step));
    litAt(host.graph, step);
    const ticket = ++showing;
    const read = await getJson<{ state: StepState }>(url(`/history/${step.step}`)).catch(() => ({ state: {} }));
    if (ticket !== showing) return; // the slider moved on meanwhile: the later step's read wins
    state = read.state;
    const offered = EDIT_KINDS.filter(
      (k) => k.kind === 'task' || editTargets(k.kind, state, step.completed).length > 0,
    );
    what.replaceChildren(...offered.map((k) => el('option', { value: k.kind }, k.label)));
    // The kind a person chose stays chosen while steps offer it; else a node's result, when there is one.
    if (offered.some((k) => k.kind === wanted)) what.value = wanted;
    form.hidden = false;
    fillTargets();
  };
  slider.addEventListener('input', () => void show());
  what.addEventListener('change', () => {
    wanted = kind();
    fillTargets();
  });
  node.addEventListener('change', () => (result.value = editPrefill(kind(), state, node.value)));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const step = chosen();
    if (!step) return;
    let edit: Record<string, unknown>;
    try {
      edit = editOf(kind(), node.value, result.value);
    } catch (error) {
      host.say(`Fork not made: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const to = `${host.conversationId()}-fork-${Date.now().toString(36)}`;
    fork.disabled = true;
    postJson<{ conversationId: string; changes: string[] }>(url('/fork'), { step: step.step, to, edit })
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
