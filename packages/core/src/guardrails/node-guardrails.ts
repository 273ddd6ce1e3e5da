/**
 * How an orchestrator hands guardrails down: its `outputGuardrails` and `toolGuardrails` (and those an
 * enclosing run handed it) go to every node and member as the invocation's guardrails, with the
 * node's path; its `inputGuardrails` check its own task once (see `guardTask`).
 */
import type { InvocationGuardrails } from './guardrail.js';
import type { GuardrailOptions, GuardrailSet } from './guardrail.js';

/** An orchestrator's guardrail options (a Graph's `setGuardrails`, a Swarm's options). */
export interface OrchestratorGuardrails extends GuardrailSet {
  /** How the loop applies them in each node (`maxRetries`, `windowChars`). */
  readonly guardrailOptions?: GuardrailOptions | undefined;
}

/** The path of node `nodeId` in a run at `path` (`undefined` or `''`: the outermost run). */
export function nodePath(path: string | undefined, nodeId: string): string {
  return path ? `${path}/${nodeId}` : nodeId;
}

/**
 * The guardrails node `nodeId` runs with: the enclosing run's (`inherited`) then the orchestrator's
 * own output and tool guardrails, at the node's path. Always an object: the path reaches the node
 * even when no guardrail does.
 */
export function guardrailsForNode(
  own: OrchestratorGuardrails | undefined,
  inherited: InvocationGuardrails | undefined,
  nodeId: string,
): InvocationGuardrails {
  const path = nodePath(inherited?.path, nodeId);
  if (!own && !inherited) return { path };
  const merge = <T>(a: readonly T[] | undefined, b: readonly T[] | undefined): readonly T[] | undefined =>
    !a || a.length === 0 ? b : !b || b.length === 0 ? a : [...a, ...b];
  const options = own?.guardrailOptions ?? inherited?.options;
  return {
    path,
    outputGuardrails: merge(inherited?.outputGuardrails, own?.outputGuardrails),
    toolGuardrails: merge(inherited?.toolGuardrails, own?.toolGuardrails),
    ...(options ? { options } : {}),
  };
}
