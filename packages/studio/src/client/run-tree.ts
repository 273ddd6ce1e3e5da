/**
 * The run tree of the current turn: the server's events (paths as arrays) folded by the inspector's
 * `RunTreeLanes` and drawn by its `renderLanesHtml`, the same lanes `skein serve` and the terminal show.
 */
import { RunTreeLanes, renderLanesHtml } from '@skein/inspector/views';
import type { TurnEvent } from './api.js';

type Folded = Parameters<RunTreeLanes['add']>[0];

/** The core stream event a server event stands for (`path` joined with `/`), or none for the server's own. */
function coreEvent(event: TurnEvent): Folded | undefined {
  if (!Array.isArray(event.path)) return undefined;
  const path = event.path.join('/');
  if (event.type === 'nodeStop')
    return {
      type: 'nodeStop',
      path,
      nodeId: event['nodeId'],
      result: { status: event['status'] },
    } as unknown as Folded;
  return { ...event, path } as unknown as Folded;
}

/** The lanes of one turn after another (each turn starts a fresh tree). */
export class RunTree {
  #lanes = new RunTreeLanes();
  readonly #into: HTMLElement;

  constructor(into: HTMLElement) {
    this.#into = into;
  }

  /** Starts a new turn's tree. */
  reset(): void {
    this.#lanes = new RunTreeLanes();
    this.#into.replaceChildren();
  }

  /** Folds one event and draws the lanes. */
  add(event: TurnEvent): void {
    const folded = coreEvent(event);
    if (!folded) return;
    this.#lanes.add(folded);
    this.#into.innerHTML = renderLanesHtml(this.#lanes.lanes(), { nowMs: this.#lanes.elapsedMs() });
  }
}
