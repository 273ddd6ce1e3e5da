/**
 * What a turn runs: an Agent, or a Graph or Swarm (core's `MultiAgentBase`), behind one small surface:
 * build it through its factory, stream it, and say where it stands (for telling a cut turn that never
 * started from one that did).
 */
import { createHash } from 'node:crypto';
import {
  ConfigurationError,
  runnableKind,
  type Agent,
  type AgentResult,
  type AgentStreamEvent,
  type Interrupt,
  type JsonValue,
  type MultiAgentBase,
  type MultiAgentResult,
  type MultiAgentStreamEvent,
  type Prompt,
  type SessionRepository,
} from '@skein/core';
import type { AgentFactory, FactoryContext, MultiAgentFactory, RunOptions, TargetKind } from '../options.js';

/** What Graph and Swarm offer beyond `MultiAgentBase` (both have them; others may not). */
interface OrchestratorExtras {
  pendingInterrupts?(): Promise<Interrupt[]>;
  lastResult?(): Promise<MultiAgentResult | undefined>;
}

/** The instance a turn runs. */
export type Target = { kind: 'agent'; agent: Agent } | { kind: 'multi'; multi: MultiAgentBase & OrchestratorExtras };

/** Builds the instance for one turn through its factory, and checks it is what the route promises. */
export async function buildTarget(
  kind: TargetKind,
  name: string,
  factory: AgentFactory | MultiAgentFactory,
  context: FactoryContext,
): Promise<Target> {
  const built: unknown = await factory(context);
  const builtKind = runnableKind(built);
  if (kind === 'agents') {
    if (builtKind === 'agent') return { kind: 'agent', agent: built as Agent };
    throw new ConfigurationError(
      `The factory of agents/${name} did not return an Agent; return new Agent({ ..., sessionManager }).`,
    );
  }
  if (builtKind === 'multiAgent') return { kind: 'multi', multi: built as MultiAgentBase & OrchestratorExtras };
  throw new ConfigurationError(
    `The factory of ${kind}/${name} did not return a Graph or Swarm (a core MultiAgentBase); return one built on the sessionManager it is given.`,
  );
}

/** Streams one run of the target. */
export function streamTarget(
  target: Target,
  prompt: Prompt | undefined,
  signal: AbortSignal,
  options: RunOptions,
): AsyncGenerator<AgentStreamEvent | MultiAgentStreamEvent, AgentResult | MultiAgentResult> {
  const invokeOptions = { signal, ...options };
  if (target.kind === 'agent') return target.agent.stream(prompt, invokeOptions);
  return target.multi.stream(prompt ?? '', invokeOptions);
}

let noMessage: string | undefined;

const hash = (value: unknown): string =>
  createHash('sha256')
    .update(JSON.stringify(value) ?? '')
    .digest('base64url');

/**
 * Where the target stands in its session before a turn: an agent's message count (removed ones
 * included) and its last message, or an orchestrator's stored record times. Compared after a
 * restart: unchanged means the cut turn had stored nothing yet.
 */
export async function standing(
  target: Target,
  repo: SessionRepository,
  sessionId: string,
  fresh = false,
): Promise<JsonValue> {
  if (target.kind === 'agent') {
    if (fresh) return { count: 0, last: (noMessage ??= hash(null)), pending: '' };
    const agent = target.agent;
    await agent.initialize();
    const messages = agent.messages;
    return {
      count: agent.conversationManager.removedMessageCount + messages.length,
      last: hash(messages[messages.length - 1] ?? null),
      pending: agent.interrupts.map((i) => i.id).join(','),
    };
  }
  if (fresh) return null;
  const stored = await repo.readMultiAgent(sessionId, target.multi.id);
  return stored ? `${stored.created_at}|${stored.updated_at}` : null;
}

/** What waits for an answer: an agent's pending interrupts, an orchestrator's paused run (read from its session). */
export async function pendingOf(target: Target): Promise<Interrupt[]> {
  if (target.kind === 'agent') {
    await target.agent.initialize();
    return [...target.agent.interrupts];
  }
  return (await target.multi.pendingInterrupts?.()) ?? [];
}
