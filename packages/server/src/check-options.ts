/** `createServer`'s options, checked at once: every mistake is a ConfigurationError naming the option and the fix. */
import { checkGuardrailOptions, ConfigurationError } from '@skein/core';
import {
  DEFAULT_LIMITS,
  type AgentFactory,
  type Limits,
  type MultiAgentFactory,
  type ServerOptions,
  type TargetKind,
} from './options.js';

const KNOWN = [
  'agents',
  'graphs',
  'swarms',
  'sessions',
  'authorize',
  'authorizeAnswer',
  'limits',
  'inputGuardrails',
  'runOptions',
  'onError',
  'evals',
];
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

function factories(options: ServerOptions, kind: TargetKind): Map<string, AgentFactory | MultiAgentFactory> {
  const given = options[kind];
  const map = new Map<string, AgentFactory | MultiAgentFactory>();
  if (given === undefined) return map;
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    throw new ConfigurationError(
      `createServer: ${kind} must be an object of factories by name, e.g. { support: ({ sessionManager }) => new Agent({ ... }) }.`,
    );
  for (const [name, factory] of Object.entries(given)) {
    if (!NAME.test(name))
      throw new ConfigurationError(
        `createServer: ${kind} name ${JSON.stringify(name.slice(0, 80))} is not usable in a URL; use 1-64 characters from A-Z a-z 0-9 _ . - starting with a letter or digit.`,
      );
    if (typeof factory !== 'function')
      throw new ConfigurationError(
        `createServer: ${kind}.${name} must be a factory function ({ conversationId, principal, sessionManager }) => instance, not ${typeof factory}.`,
      );
    map.set(name, factory);
  }
  return map;
}

function limits(given: unknown): Limits {
  if (given === undefined) return DEFAULT_LIMITS;
  if (typeof given !== 'object' || given === null)
    throw new ConfigurationError('createServer: limits must be an object, e.g. { turnsPerMinute: 30 }.');
  const out: Limits = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(given)) {
    if (!(key in DEFAULT_LIMITS))
      throw new ConfigurationError(
        `createServer: unknown limit ${JSON.stringify(key)}; known limits: ${Object.keys(DEFAULT_LIMITS).join(', ')}.`,
      );
    if (typeof value !== 'number' || !(value > 0))
      throw new ConfigurationError(
        `createServer: limits.${key} must be a number above 0 (got ${JSON.stringify(value)}).`,
      );
    out[key as keyof Limits] = value;
  }
  return out;
}

/** The checked options: factories by kind and name, and the limits with their defaults. */
export function checkOptions(options: ServerOptions): {
  factories: Record<TargetKind, Map<string, AgentFactory | MultiAgentFactory>>;
  limits: Limits;
} {
  if (typeof options !== 'object' || options === null)
    throw new ConfigurationError('createServer needs { agents, graphs, swarms, sessions, authorize?, limits? }.');
  for (const key of Object.keys(options))
    if (!KNOWN.includes(key))
      throw new ConfigurationError(
        `createServer: unknown option ${JSON.stringify(key)}; known options: ${KNOWN.join(', ')}.`,
      );
  if (typeof options.sessions !== 'function')
    throw new ConfigurationError(
      "createServer: sessions must be (sessionId) => SessionManager, e.g. (id) => new FileSessionManager({ sessionId: id, storageDir: './sessions' }).",
    );
  for (const key of ['authorize', 'authorizeAnswer', 'runOptions', 'onError', 'evals'] as const)
    if (options[key] !== undefined && typeof options[key] !== 'function')
      throw new ConfigurationError(`createServer: ${key} must be a function.`);
  checkGuardrailOptions({ inputGuardrails: options.inputGuardrails }, 'createServer:');
  const all = {
    agents: factories(options, 'agents'),
    graphs: factories(options, 'graphs'),
    swarms: factories(options, 'swarms'),
  };
  if (all.agents.size + all.graphs.size + all.swarms.size === 0)
    throw new ConfigurationError(
      'createServer: give at least one of agents, graphs or swarms, e.g. { agents: { support: ({ sessionManager }) => new Agent({ model, sessionManager }) } }.',
    );
  return { factories: all, limits: limits(options.limits) };
}
