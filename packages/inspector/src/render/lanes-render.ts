/**
 * A run tree's lanes (see `RunTreeLanes`) drawn: as terminal lines (each run indented under the one
 * that runs it, a bar on the run's clock, its status and what it does) and as an HTML fragment with
 * the same nesting (lanes as bars placed by `left`/`width` percentages, no script).
 */
import type { Lane } from '../view/run-tree-lanes.js';
import { paintFor, statusColour, type Paint } from './ansi.js';

/** The end of the clock the lanes are drawn on: the last end or start, at least 1 ms. */
function spanOf(lanes: readonly Lane[], nowMs: number | undefined): number {
  const ends = lanes.map((l) => l.endMs ?? nowMs ?? l.startMs);
  return Math.max(1, ...ends);
}

const name = (lane: Lane): string => (lane.path === '' ? 'run' : (lane.path.split('/').at(-1) ?? ''));

/** How far a lane is indented: below the orchestrator's own lane (`''`) when there is one. */
const levelOf = (lanes: readonly Lane[]): ((lane: Lane) => number) => {
  const rooted = lanes.some((l) => l.path === '');
  return (lane) => (lane.path === '' ? 0 : lane.depth + (rooted ? 1 : 0));
};

/** The lanes as terminal lines; `width`: columns of the bars; `nowMs`: where running lanes end. */
export function renderLanesText(
  lanes: readonly Lane[],
  options: { paint?: Paint; width?: number; nowMs?: number } = {},
): string {
  const paint = options.paint ?? paintFor({});
  const level = levelOf(lanes);
  const width = options.width ?? 30;
  const span = spanOf(lanes, options.nowMs);
  const labels = lanes.map((l) => `${'  '.repeat(level(l))}${name(l)}`);
  const pad = Math.max(...labels.map((l) => l.length), 3);
  return lanes
    .map((lane, i) => {
      const from = Math.round((lane.startMs / span) * width);
      const to = Math.max(from + 1, Math.round(((lane.endMs ?? options.nowMs ?? span) / span) * width));
      const bar = `${' '.repeat(from)}${'█'.repeat(to - from)}`.padEnd(width);
      const status = statusColour(paint, lane.status === 'waiting' ? 'interrupted' : lane.status)(lane.status);
      return `${paint.cyan((labels[i] ?? '').padEnd(pad))} │${bar}│ ${status}  ${paint.dim(lane.doing)}`.trimEnd();
    })
    .join('\n');
}

const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The lanes as an HTML fragment (a `<ol class="lanes">`); style it with the `.lane`, `.bar` and status classes. */
export function renderLanesHtml(lanes: readonly Lane[], options: { nowMs?: number } = {}): string {
  const span = spanOf(lanes, options.nowMs);
  const pct = (ms: number): string => `${((ms / span) * 100).toFixed(2)}%`;
  const level = levelOf(lanes);
  const items = lanes.map((lane) => {
    const end = lane.endMs ?? options.nowMs ?? span;
    const style = `left:${pct(lane.startMs)};width:${pct(Math.max(0, end - lane.startMs))}`;
    return (
      `<li class="lane ${lane.status}" data-path="${esc(lane.path)}" style="padding-left:${level(lane) * 1.5}em">` +
      `<span class="name">${esc(
        name(lane),
      )}</span><span class="track"><span class="bar" style="${style}"></span></span>` +
      `<span class="doing">${esc(lane.doing)}</span></li>`
    );
  });
  return `<ol class="lanes">${items.join('')}</ol>`;
}
