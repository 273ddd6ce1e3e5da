/**
 * A run tree's lanes, folded live from one stream (an Agent's, a Graph's or a Swarm's): one lane per
 * `path` that made events (an outermost agent, each node, each agent used as a tool, each member of
 * a nested orchestrator), nested under its parent path, each with when it started and ended on the
 * run's clock, its status and what it is doing now. Feed it every event as it comes (`add`), read
 * `lanes()` whenever you draw: a terminal or a page shows nested runs while they work.
 */
import type { AgentStreamEvent, MultiAgentStreamEvent } from '@skein/core';

/** One run in the tree. */
export interface Lane {
  /** Its path (`billing/refund`); the outermost orchestrator's own lane is `''`. */
  path: string;
  depth: number;
  /** ms since the first event. */
  startMs: number;
  /** ms since the first event; `undefined` while it runs. */
  endMs: number | undefined;
  status: 'running' | 'completed' | 'failed' | 'waiting';
  /** What it did last: the tool it calls, the tail of its text, what it waits for. */
  doing: string;
}

type Event = AgentStreamEvent | MultiAgentStreamEvent;

const join = (path: string, name: string): string => (path ? `${path}/${name}` : name);

/** A node's status as its lane shows it. */
const STATUS: Record<string, Lane['status']> = {
  completed: 'completed',
  failed: 'failed',
  interrupted: 'waiting',
  budgetExceeded: 'failed',
};

/** Folds stream events into lanes (see the module comment). */
export class RunTreeLanes {
  readonly #lanes = new Map<string, Lane>();
  /** The nested run each tool call runs, by `<caller path>#<tool use id>`, so the call's result ends its lane. */
  readonly #calls = new Map<string, string>();
  readonly #now: () => number;
  #t0: number | undefined;

  /** `now`: the clock in ms (default `performance.now`). */
  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Folds one event of the stream. */
  add(event: Event): void {
    const at = this.#at();
    let e: Event = event;
    while (e.type === 'nodeStream' || e.type === 'toolStream') {
      if (e.type === 'toolStream') {
        const caller = e.path.split('/').slice(0, -1).join('/');
        this.#calls.set(`${caller}#${e.toolUse.toolUseId}`, e.path);
      }
      e = e.event;
    }
    const lane = this.#lane(e.path, at);
    switch (e.type) {
      case 'nodeStart':
        this.#lane(join(e.path, e.nodeId), at);
        return;
      case 'nodeStop':
        return this.#end(join(e.path, e.nodeId), at, STATUS[e.result.status] ?? 'completed');
      case 'transition':
        // The run's own end (`complete`, `fail`: from its last node to nobody) ends its lane.
        if (e.transition.to === null && (e.transition.kind === 'complete' || e.transition.kind === 'fail'))
          this.#end(e.path, at, e.transition.kind === 'fail' ? 'failed' : 'completed');
        return;
      case 'toolStart':
        lane.status = 'running';
        lane.doing = `calls ${e.toolUse.name}`;
        return;
      case 'toolResult': {
        lane.doing = `${e.toolResult.status === 'success' ? 'got' : 'failed'} ${e.toolResult.toolUseId}`;
        const nested = this.#calls.get(`${e.path}#${e.toolResult.toolUseId}`);
        if (nested) this.#end(nested, at, e.toolResult.status === 'success' ? 'completed' : 'failed');
        return;
      }
      case 'textDelta': {
        // The tail of what it says, quoted (a tool call or a wait in between starts a new quote).
        const said = lane.doing.startsWith('“') ? lane.doing.slice(1) : '';
        lane.status = 'running';
        lane.doing = `“${(said + e.data).slice(-48)}`;
        return;
      }
      case 'interrupt':
        lane.status = 'waiting';
        lane.doing = `waits for ${e.interrupts.map((i) => i.name).join(', ')}`;
        return;
      default:
        return;
    }
  }

  /** ms since the first event (where running lanes end when drawn: `renderLanesText(lanes, { nowMs })`). */
  elapsedMs(): number {
    return this.#t0 === undefined ? 0 : this.#now() - this.#t0;
  }

  /** The lanes so far, each after its parent (depth first, in the order they started). */
  lanes(): Lane[] {
    const all = [...this.#lanes.values()];
    const children = (parent: string | undefined): Lane[] =>
      all.filter((l) => parentOf(l.path) === parent).flatMap((l) => [l, ...children(l.path)]);
    const roots = all.filter((l) => parentOf(l.path) === undefined || !this.#lanes.has(parentOf(l.path) ?? ''));
    return roots.flatMap((l) => [l, ...children(l.path)]);
  }

  /** ms since the first event. */
  #at(): number {
    const now = this.#now();
    this.#t0 ??= now;
    return now - this.#t0;
  }

  #lane(path: string, at: number): Lane {
    let lane = this.#lanes.get(path);
    if (!lane) {
      lane = {
        path,
        depth: path ? path.split('/').length - 1 : 0,
        startMs: at,
        endMs: undefined,
        status: 'running',
        doing: '',
      };
      this.#lanes.set(path, lane);
    } else if (lane.endMs !== undefined && lane.status !== 'waiting') {
      // Runs again (a node revisited, a tool called again): the lane goes on.
      lane.endMs = undefined;
      lane.status = 'running';
    }
    return lane;
  }

  #end(path: string, at: number, status: Lane['status']): void {
    const lane = this.#lanes.get(path);
    if (!lane) return;
    lane.endMs = at;
    lane.status = status;
  }
}

/** The parent of a path: `billing` for `billing/refund`, `''` for a top-level one, `undefined` for `''`. */
function parentOf(path: string): string | undefined {
  if (path === '') return undefined;
  const i = path.lastIndexOf('/');
  return i === -1 ? '' : path.slice(0, i);
}
