/**
 * What the page draws of each target, found once at start: a graph's or swarm's shape (built on a
 * throwaway in-memory session, read from its `toMermaid()`); an agent has none.
 */
import { InMemorySessionRepository, RepositorySessionManager } from '@skein/core';
import type { GraphShape } from '@skein/inspector';
import type { FactoryContext } from '@skein/server';
import type { StudioTargets } from './load-targets.js';
import { shapeFromMermaid } from './mermaid-shape.js';

/** One target as the page lists it. */
export interface TargetInfo {
  kind: 'agents' | 'graphs' | 'swarms';
  name: string;
  shape: GraphShape | null;
  /** The module has an eval set the page can run against it (`POST /v1/{kind}/{name}/evals`). */
  evals: boolean;
}

const hasMermaid = (v: unknown): v is { toMermaid(): string } =>
  typeof v === 'object' && v !== null && typeof (v as { toMermaid?: unknown }).toMermaid === 'function';

/** Every target of `targets`, graphs first, each with its shape. */
export async function describeTargets(targets: StudioTargets): Promise<TargetInfo[]> {
  const evals = targets.evals !== undefined;
  const repository = new InMemorySessionRepository();
  const infos: TargetInfo[] = [];
  for (const kind of ['graphs', 'swarms', 'agents'] as const) {
    for (const [name, factory] of Object.entries(targets[kind] ?? {})) {
      if (kind === 'agents') {
        infos.push({ kind, name, shape: null, evals });
        continue;
      }
      const sessionManager = new RepositorySessionManager({ sessionId: `studio-shape-${name}`, repository });
      const context: FactoryContext = {
        conversationId: 'studio-shape',
        sessionId: `studio-shape-${name}`,
        principal: 'anonymous',
        sessionManager,
      };
      const built: unknown = await factory(context);
      infos.push({ kind, name, shape: hasMermaid(built) ? shapeFromMermaid(built.toMermaid()) : null, evals });
    }
  }
  return infos;
}
