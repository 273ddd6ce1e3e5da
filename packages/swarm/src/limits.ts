import type { ResolvedSwarmOptions } from './swarm-options.js';

/** Why the next node may not run (iteration or time budget spent), or `undefined`. */
export function beforeNodeLimit(
  options: ResolvedSwarmOptions,
  executions: number,
  elapsedMs: number,
  next: string,
): string | undefined {
  if (executions >= options.maxIterations) {
    return `The swarm reached maxIterations (${options.maxIterations} node executions) before running ${next}.`;
  }
  if (elapsedMs >= options.executionTimeout) {
    return `The swarm's executionTimeout of ${options.executionTimeout} ms elapsed before running ${next}.`;
  }
  return undefined;
}

/** Why a requested transfer may not happen (handoff budget spent, or ping-pong), or `undefined`. */
export function transferLimit(
  options: ResolvedSwarmOptions,
  handoffs: number,
  history: readonly string[],
  from: string,
  to: string,
): string | undefined {
  if (handoffs >= options.maxHandoffs) {
    return `${from} asked to hand off to ${to}, but the swarm already made maxHandoffs (${options.maxHandoffs}) transfers.`;
  }
  if (options.window > 0) {
    const candidate = [...history, to];
    if (candidate.length >= options.window) {
      const recent = candidate.slice(-options.window);
      const unique = new Set(recent).size;
      if (unique < options.minUnique) {
        return (
          `Repetitive handoffs (ping-pong): the last ${options.window} nodes would be ${recent.join(' -> ')}, only ${unique} distinct agent(s), ` +
          `fewer than repetitiveHandoffMinUniqueAgents (${options.minUnique}). The transfer from ${from} to ${to} was not made.`
        );
      }
    }
  }
  return undefined;
}
