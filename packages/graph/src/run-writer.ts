import {
  numberTransitions,
  type Agent,
  type JsonObject,
  type MultiAgentStreamEvent,
  type NewTransition,
  type NodeTransition,
  type OrchestratorBudget,
} from '@skein/core';
import { startPoints } from './agent-snapshot.js';
import type { GraphSession } from './graph-session.js';
import type { GraphConfig } from './graph-types.js';
import { stateDocument, type RunState } from './run-state.js';

/** What one write of a run stores besides its state document. */
export interface RunWrite {
  /** A finished node's entry. */
  node?: { id: string; entry: JsonObject } | undefined;
  /** The node's agent, whose held writes go with this step. */
  agent?: Agent | undefined;
  transitions?: NewTransition[];
  /** The run's first write (it creates the stored run). */
  first?: boolean;
}

/** Nodes, edges (one per source; `join` when the edge waits for several) and entry points, as JSON. */
function graphShape(config: GraphConfig): JsonObject {
  return {
    nodes: [...config.nodes.keys()],
    edges: config.edges.flatMap((e) =>
      e.from.map((from) => ({ from, to: e.to, conditional: e.condition !== undefined, join: e.join })),
    ),
    entryPoints: [...config.entryPoints],
  };
}

/**
 * A run's writes: each step's state document (the run state taken synchronously when the step is
 * written, the waiting agents' start points, what the budget spent) through the graph's session, the
 * graph's shape once per run (the run document, written with the run's first step: a step's cost does
 * not grow with the graph), and the transitions the step stored, published in order to the run's list and
 * its `transition` events. Without a session, transitions are only numbered (in write order) and published.
 */
export class RunWriter {
  readonly #session: GraphSession | undefined;
  readonly #config: GraphConfig;
  readonly #budget: OrchestratorBudget | undefined;
  readonly #state: RunState;
  readonly #elapsedMs: () => number;
  readonly #emit: ((event: MultiAgentStreamEvent) => void) | undefined;
  /** Without a session: the number of the next transition (the session numbers them otherwise). */
  #next: number;

  constructor(
    host: { session: GraphSession | undefined; config: GraphConfig; budget?: OrchestratorBudget | undefined },
    state: RunState,
    elapsedMs: () => number,
    emit: ((event: MultiAgentStreamEvent) => void) | undefined,
  ) {
    this.#session = host.session;
    this.#config = host.config;
    this.#budget = host.budget;
    this.#state = state;
    this.#elapsedMs = elapsedMs;
    this.#emit = emit;
    this.#next = state.transitions.length;
  }

  /** Persists the current state with `w`'s node entry, agent writes and transitions; returns the transitions, numbered. */
  async write(w: RunWrite): Promise<NodeTransition[]> {
    const session = this.#session;
    const transitions = w.transitions ?? [];
    if (!session) {
      const numbered = numberTransitions(this.#next, transitions);
      this.#next += numbered.length;
      return numbered;
    }
    const budget = this.#budget;
    const doc = {
      ...stateDocument(this.#state, this.#elapsedMs(), startPoints(this.#state, this.#config, session)),
      ...(budget ? { budget: { ...budget.spent() } } : {}),
    };
    if (w.first) return session.start(doc, transitions, { shape: graphShape(this.#config) });
    return session.save({ ...(w.node ? { node: w.node } : {}), agent: w.agent, transitions, state: doc });
  }

  /** Adds stored transitions to the run's list in `seq` order and emits them. */
  publish(transitions: NodeTransition[]): void {
    const list = this.#state.transitions;
    for (const t of transitions) {
      list.push(t);
      if (list.length > 1 && (list[list.length - 2] as NodeTransition).seq > t.seq) list.sort((a, b) => a.seq - b.seq);
      this.#emit?.({ type: 'transition', transition: t });
    }
  }
}
