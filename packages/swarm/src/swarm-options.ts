import {
  checkGuardrailOptions,
  type AgentMemory,
  checkHistoryOptions,
  type Guardrail,
  type GuardrailOptions,
  type InputSubject,
  type OutputSubject,
  type ToolSubject,
  ConfigurationError,
  type Agent,
  type HandoffInputFilter,
  type HistoryOptions,
  type HookProvider,
  type SessionManager,
} from '@skein/core';
import type { HandoffHistoryMapper, HandoffRunSettings } from '@skein/handoffs';

/** Options of `new Swarm({...})`. Only `nodes` is required. */
export interface SwarmOptions {
  /** The member agents (names must be unique; each name gives its node id and handoff tool). */
  nodes: Agent[];
  /** The agent that receives the task (a member, or its name). Default: the first node. */
  entryPoint?: Agent | string;
  /** Most transfers in one run; one more fails the run. Default 20. */
  maxHandoffs?: number;
  /** Most node executions in one run; one more fails the run. Default 20. */
  maxIterations?: number;
  /** Time budget of a whole run in ms (kept across a resume). Default 900_000 (15 min). */
  executionTimeout?: number;
  /** Time budget of one node execution in ms. Default 300_000 (5 min). */
  nodeTimeout?: number;
  /** How many recent node executions ping-pong detection looks at; 0 turns it off. Default 0. */
  repetitiveHandoffDetectionWindow?: number;
  /** Fewest distinct agents the window must hold, or the run fails as ping-pong. Default 0. */
  repetitiveHandoffMinUniqueAgents?: number;
  /** Persists the run after every node and transition, and resumes it after a crash. */
  sessionManager?: SessionManager;
  /**
   * What the session keeps of past steps for time travel (`history()`, `stateAt()`, `fork()`):
   * `{ keep: 'all' }` (the default), `{ keep: n }` (the last n runs) or `{ keep: 'none' }`.
   */
  history?: HistoryOptions;
  /** The swarm's id in the session. Default `'default_swarm'`. */
  id?: string;
  /** Collapse the history into one summary message on handoffs without an input filter. Default false. */
  nestHandoffHistory?: boolean;
  /** Replaces the summary that nested history writes. */
  handoffHistoryMapper?: HandoffHistoryMapper;
  /** Input filter for handoffs that have none of their own. */
  handoffInputFilter?: HandoffInputFilter;
  /** Hook providers for the swarm's multi-agent events. */
  hooks?: HookProvider[];
  /**
   * Give a member one repair turn when its final text announces a transfer to a member it is offered
   * ("I'll transfer you to billing") without calling the tool. Default true.
   */
  repairNarratedHandoffs?: boolean;
  /**
   * A member's own memory (its agent state) across its activations in one run: `'kept'` (default)
   * carries it from one activation to the next; `'fresh'` starts every activation from the state the
   * member had when the swarm was constructed. Either way its messages are the conversation passed on.
   */
  memberMemory?: 'kept' | 'fresh';
  /** Check the swarm's task once, before the first member runs (a fresh run only): pass, rewrite or block. */
  inputGuardrails?: Guardrail<InputSubject>[];
  /** Every member's answers, streamed and whole, after the member's own: pass, rewrite, block or retry. */
  outputGuardrails?: Guardrail<OutputSubject>[];
  /** Every member's tool calls, before they run and on their results. */
  toolGuardrails?: Guardrail<ToolSubject>[];
  /** How members apply them (`maxRetries`, `windowChars`). */
  guardrailOptions?: GuardrailOptions;
  /**
   * Long-term memory (`new Memory({...})` from `@skein/memory`) its members read under the resource
   * of `invoke(task, { memory })`; the swarm records each completed run (its task and its answer).
   */
  memory?: AgentMemory;
}

/** Options with defaults applied. */
export interface ResolvedSwarmOptions {
  maxHandoffs: number;
  maxIterations: number;
  executionTimeout: number;
  nodeTimeout: number;
  window: number;
  minUnique: number;
  repairNarratedHandoffs: boolean;
  memberMemory: 'kept' | 'fresh';
}

const KNOWN = new Set([
  'nodes',
  'entryPoint',
  'maxHandoffs',
  'maxIterations',
  'executionTimeout',
  'nodeTimeout',
  'repetitiveHandoffDetectionWindow',
  'repetitiveHandoffMinUniqueAgents',
  'history',
  'sessionManager',
  'id',
  'nestHandoffHistory',
  'handoffHistoryMapper',
  'handoffInputFilter',
  'hooks',
  'repairNarratedHandoffs',
  'memberMemory',
  'inputGuardrails',
  'outputGuardrails',
  'toolGuardrails',
  'guardrailOptions',
  'memory',
]);

function count(options: SwarmOptions, key: keyof SwarmOptions, fallback: number, min: number): number {
  const value = options[key];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new ConfigurationError(`Swarm option ${key} must be an integer >= ${min} (got ${JSON.stringify(value)}).`);
  }
  return value;
}

/** Checks the options and applies defaults; throws `ConfigurationError` saying what to change. */
export function resolveSwarmOptions(options: SwarmOptions): ResolvedSwarmOptions {
  if (typeof options !== 'object' || options === null)
    throw new ConfigurationError('new Swarm() takes an options object, e.g. new Swarm({ nodes: [triage, billing] }).');
  const unknown = Object.keys(options).filter((k) => !KNOWN.has(k));
  if (unknown.length > 0)
    throw new ConfigurationError(
      `Unknown Swarm option(s): ${unknown.join(', ')}. Known options: ${[...KNOWN].join(', ')}.`,
    );
  if (!Array.isArray(options.nodes) || options.nodes.length === 0) {
    throw new ConfigurationError('A Swarm needs at least one agent: new Swarm({ nodes: [triage, billing, refund] }).');
  }
  const resolved: ResolvedSwarmOptions = {
    maxHandoffs: count(options, 'maxHandoffs', 20, 0),
    maxIterations: count(options, 'maxIterations', 20, 1),
    executionTimeout: count(options, 'executionTimeout', 900_000, 1),
    nodeTimeout: count(options, 'nodeTimeout', 300_000, 1),
    window: count(options, 'repetitiveHandoffDetectionWindow', 0, 0),
    minUnique: count(options, 'repetitiveHandoffMinUniqueAgents', 0, 0),
    repairNarratedHandoffs: options.repairNarratedHandoffs ?? true,
    memberMemory: options.memberMemory ?? 'kept',
  };
  if (typeof resolved.repairNarratedHandoffs !== 'boolean')
    throw new ConfigurationError('Swarm option repairNarratedHandoffs must be true or false.');
  if (resolved.memberMemory !== 'kept' && resolved.memberMemory !== 'fresh') {
    throw new ConfigurationError(
      `Swarm option memberMemory must be 'kept' or 'fresh' (got ${JSON.stringify(resolved.memberMemory)}).`,
    );
  }
  if (resolved.minUnique > 0 && resolved.window === 0) {
    throw new ConfigurationError(
      'repetitiveHandoffMinUniqueAgents needs repetitiveHandoffDetectionWindow too (how many recent nodes to look at).',
    );
  }
  if (resolved.minUnique > resolved.window) {
    throw new ConfigurationError(
      `repetitiveHandoffMinUniqueAgents (${resolved.minUnique}) cannot exceed repetitiveHandoffDetectionWindow (${resolved.window}): no window could ever pass.`,
    );
  }
  for (const key of ['handoffHistoryMapper', 'handoffInputFilter'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'function')
      throw new ConfigurationError(`Swarm option ${key} must be a function.`);
  }
  checkShapes(options);
  checkGuardrailOptions(options, 'Swarm option');
  checkHistoryOptions(options.history);
  return resolved;
}

/** How the swarm's transfers shape the history they pass on (input filter, nested history). */
export function handoffSettings(options: SwarmOptions): HandoffRunSettings {
  return {
    inputFilter: options.handoffInputFilter,
    nestHandoffHistory: options.nestHandoffHistory,
    handoffHistoryMapper: options.handoffHistoryMapper,
  };
}

/** Options a JavaScript caller can give of the wrong type, found here rather than inside a run. */
function checkShapes(options: SwarmOptions): void {
  const o = options as unknown as Record<string, unknown>;
  const has = (value: unknown, method: string): boolean =>
    typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[method] === 'function';
  if (o['sessionManager'] !== undefined && !has(o['sessionManager'], 'openMultiAgent')) {
    throw new ConfigurationError(
      'Swarm option sessionManager must be a session manager, e.g. new FileSessionManager({ sessionId }) from @skein/session-file.',
    );
  }
  const hooks = o['hooks'];
  if (hooks !== undefined && (!Array.isArray(hooks) || !hooks.every((h) => has(h, 'registerHooks')))) {
    throw new ConfigurationError(
      'Swarm option hooks must be an array of hook providers ({ registerHooks(registry) }).',
    );
  }
  if (o['memory'] !== undefined && !has(o['memory'], 'openTurn'))
    throw new ConfigurationError(
      'Swarm option memory must be a memory, e.g. new Memory({ store }) from @skein/memory.',
    );
  if (o['id'] !== undefined && (typeof o['id'] !== 'string' || o['id'] === ''))
    throw new ConfigurationError('Swarm option id must be a non-empty string.');
  if (o['nestHandoffHistory'] !== undefined && typeof o['nestHandoffHistory'] !== 'boolean')
    throw new ConfigurationError('Swarm option nestHandoffHistory must be true or false.');
}
