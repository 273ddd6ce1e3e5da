import {
  ConfigurationError,
  assertNoOwnSessionManager,
  checkHistoryOptions,
  checkGuardrailOptions,
  checkSessionId,
  isAgent,
  isRunnable,
  type OrchestratorGuardrails,
  type SessionManager,
  type AgentMemory,
  type HistoryOptions,
} from '@skein/core';
import { checkGraph } from './build-checks.js';
import { Graph } from './graph.js';
import type { EdgeCondition, GraphEdge, GraphNode, GraphNodeTarget } from './graph-types.js';

/**
 * Declares a graph of agents (and nested orchestrators) and builds a {@link Graph}.
 * @example
 * const graph = new GraphBuilder()
 *   .addNode(triage).addNode(billing).addNode(refund)
 *   .addEdge('triage', 'billing', (s) => s.results['triage']?.text.includes('BILLING') ?? false)
 *   .addEdge('triage', 'refund', (s) => s.results['triage']?.text.includes('REFUND') ?? false)
 *   .build();
 * const result = await graph.invoke('I was charged twice');
 */
export class GraphBuilder {
  readonly #nodes = new Map<string, GraphNode>();
  readonly #edges: GraphEdge[] = [];
  readonly #entryPoints: string[] = [];
  #id = 'graph';
  #maxNodeExecutions: number | undefined;
  #executionTimeoutMs: number | undefined;
  #nodeTimeoutMs: number | undefined;
  #resetOnRevisit = false;
  #maxConcurrency = Infinity;
  #continueOnFailure = false;
  #sessionManager: SessionManager | undefined;
  #memory: AgentMemory | undefined;
  #history: HistoryOptions | undefined;
  #guardrails: OrchestratorGuardrails | undefined;

  /** Adds an agent or orchestrator as a node; its id defaults to the agent's name or the orchestrator's id. */
  addNode(target: GraphNodeTarget, id?: string): this {
    if (!isRunnable(target)) {
      throw new ConfigurationError(
        'addNode() takes an Agent or an orchestrator (a Graph, a Swarm: anything with kind "multiAgent").',
      );
    }
    const nodeId = id ?? (isAgent(target) ? target.name : target.id);
    if (typeof nodeId !== 'string' || nodeId.length === 0)
      throw new ConfigurationError('A node id must be a non-empty string.');
    if (this.#nodes.has(nodeId)) {
      throw new ConfigurationError(
        `The graph already has a node ${JSON.stringify(nodeId)}; pass a distinct id: addNode(agent, 'another-id').`,
      );
    }
    for (const node of this.#nodes.values()) {
      if (node.target === target) {
        throw new ConfigurationError(
          `The same ${isAgent(target) ? 'agent' : 'orchestrator'} is already node ${JSON.stringify(node.id)}; a node runs its own instance, so create another one for ${JSON.stringify(nodeId)}.`,
        );
      }
    }
    if (isAgent(target)) assertNoOwnSessionManager(target, 'Graph');
    this.#nodes.set(nodeId, { id: nodeId, target });
    return this;
  }

  /** Adds an edge; `from` as an array is a join that waits for all of its sources. The condition decides whether it is followed. */
  addEdge(from: string | readonly string[], to: string, condition?: EdgeCondition): this {
    if (typeof from !== 'string' && !Array.isArray(from)) {
      throw new ConfigurationError(
        `addEdge() takes a source node id or an array of them (a join) first (got ${typeof from}).`,
      );
    }
    const sources = typeof from === 'string' ? [from] : [...from];
    const join = typeof from !== 'string';
    if (sources.length === 0) throw new ConfigurationError('addEdge() needs at least one source node.');
    if (new Set(sources).size !== sources.length)
      throw new ConfigurationError(`A join lists ${sources.join(', ')}: name each source once.`);
    for (const id of [...sources, to]) this.#requireNode(id, 'addEdge()');
    if (condition !== undefined && typeof condition !== 'function') {
      throw new ConfigurationError('An edge condition must be a function (state) => boolean.');
    }
    this.#edges.push({ index: this.#edges.length, from: sources, to, join, condition });
    return this;
  }

  /** Marks a node where runs start; call it again for several. Default: the nodes without incoming edges. */
  setEntryPoint(id: string): this {
    this.#requireNode(id, 'setEntryPoint()');
    if (!this.#entryPoints.includes(id)) this.#entryPoints.push(id);
    return this;
  }

  /** Ends a run with status `failed` once this many node executions have started (needed for cycles). */
  setMaxNodeExecutions(n: number): this {
    this.#maxNodeExecutions = positiveInteger(n, 'setMaxNodeExecutions()');
    return this;
  }

  /** Ends a run with status `failed` after this many ms in all, aborting the nodes still running. */
  setExecutionTimeout(ms: number): this {
    this.#executionTimeoutMs = positiveNumber(ms, 'setExecutionTimeout()');
    return this;
  }

  /** Aborts a node (its model call and tools) after this many ms; the node fails. */
  setNodeTimeout(ms: number): this {
    this.#nodeTimeoutMs = positiveNumber(ms, 'setNodeTimeout()');
    return this;
  }

  /** When true, a node that runs again in one run starts from its agent's initial messages and state. Default false. */
  resetOnRevisit(enabled = true): this {
    if (typeof enabled !== 'boolean')
      throw new ConfigurationError(`resetOnRevisit() takes true or false (got ${typeof enabled}).`);
    this.#resetOnRevisit = enabled;
    return this;
  }

  /** How many nodes may run at once. Default: no limit. */
  setMaxConcurrency(n: number): this {
    this.#maxConcurrency = n === Infinity ? n : positiveInteger(n, 'setMaxConcurrency()');
    return this;
  }

  /** When true, a failed node does not stop the run: its conditional edges may route around it. Default false (fail fast). */
  continueOnFailure(enabled = true): this {
    this.#continueOnFailure = enabled;
    return this;
  }

  /** Persists the run and every node agent through this session manager, and resumes interrupted runs. */
  setSessionManager(sessionManager: SessionManager): this {
    if (!sessionManager || typeof sessionManager.openMultiAgent !== 'function') {
      throw new ConfigurationError(
        'setSessionManager() takes a session manager, e.g. new FileSessionManager({ sessionId }) from @skein/session-file.',
      );
    }
    this.#sessionManager = sessionManager;
    return this;
  }

  /**
   * Long-term memory (`new Memory({...})` from `@skein/memory`) shared by the graph's agent nodes:
   * each reads it under the resource of `invoke(task, { memory })`, and the graph records each
   * completed run (its task and its answer).
   */
  setMemory(memory: AgentMemory): this {
    if (!memory || typeof memory.openTurn !== 'function')
      throw new ConfigurationError('setMemory() takes a memory, e.g. new Memory({ store }) from @skein/memory.');
    this.#memory = memory;
    return this;
  }

  /**
   * What the session keeps of past steps for time travel (`history()`, `stateAt()`, `fork()`):
   * `{ keep: 'all' }` (the default), `{ keep: n }` (the last n runs) or `{ keep: 'none' }`.
   */
  setHistory(options: HistoryOptions): this {
    checkHistoryOptions(options);
    this.#history = { ...options };
    return this;
  }

  /** The graph's id: its session stores the run under it. Default `'graph'`. */
  setId(id: string): this {
    if (typeof id !== 'string' || id.length === 0) throw new ConfigurationError('setId() takes a non-empty string.');
    this.#id = id;
    return this;
  }

  /**
   * Guardrails of the graph: `inputGuardrails` check its task once, before any node runs;
   * `outputGuardrails` and `toolGuardrails` go to every node (each node's answers, streamed and whole,
   * and its tool calls), after the node agent's own. A block ends the run with `GuardrailTripped`.
   */
  setGuardrails(guardrails: OrchestratorGuardrails): this {
    if (typeof guardrails !== 'object' || guardrails === null)
      throw new ConfigurationError('setGuardrails() takes { inputGuardrails, outputGuardrails, toolGuardrails }.');
    checkGuardrailOptions(guardrails, 'setGuardrails()');
    this.#guardrails = guardrails;
    return this;
  }

  /** Checks the graph and returns it ready to run. */
  build(): Graph {
    const entryPoints = checkGraph({
      nodes: this.#nodes,
      edges: this.#edges,
      entryPoints: this.#entryPoints,
      hasLimit: this.#maxNodeExecutions !== undefined || this.#executionTimeoutMs !== undefined,
    });
    if (this.#sessionManager) {
      checkSessionId(this.#id, 'graph id');
      for (const id of this.#nodes.keys()) checkSessionId(id, 'node id');
    }
    return new Graph({
      id: this.#id,
      nodes: new Map(this.#nodes),
      edges: [...this.#edges],
      entryPoints,
      maxNodeExecutions: this.#maxNodeExecutions,
      executionTimeoutMs: this.#executionTimeoutMs,
      nodeTimeoutMs: this.#nodeTimeoutMs,
      resetOnRevisit: this.#resetOnRevisit,
      maxConcurrency: this.#maxConcurrency,
      continueOnFailure: this.#continueOnFailure,
      sessionManager: this.#sessionManager,
      history: this.#history,
      guardrails: this.#guardrails,
      memory: this.#memory,
    });
  }

  #requireNode(id: string, where: string): void {
    if (!this.#nodes.has(id)) {
      const known = [...this.#nodes.keys()].map((k) => JSON.stringify(k)).join(', ') || 'none yet';
      throw new ConfigurationError(
        `${where} names node ${JSON.stringify(id)}, which is not in the graph (nodes: ${known}); add it with addNode() first.`,
      );
    }
  }
}

function positiveInteger(n: number, where: string): number {
  if (!Number.isInteger(n) || n < 1) throw new ConfigurationError(`${where} takes an integer >= 1 (got ${String(n)}).`);
  return n;
}

function positiveNumber(n: number, where: string): number {
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0)
    throw new ConfigurationError(`${where} takes a number of ms > 0 (got ${String(n)}).`);
  return n;
}
