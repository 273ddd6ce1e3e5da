import { ConfigurationError, isAgent, type Runnable } from '@skein/core';
import { instrumentAgent } from './agent-spans.js';
import { resolveTelemetry, type InstrumentOptions } from './options.js';
import { children, isOrchestrator } from './walk.js';
import { instrumentWorkflow } from './workflow-spans.js';

// Objects instrumented by any live instrument() call: instrumenting one twice would double its spans.
const instrumented = new WeakSet<object>();

/**
 * Instruments an agent, a graph or a swarm, and everything it runs (graph nodes, swarm members,
 * nested orchestrators, agents behind `asTool()` tools, handoff targets), with OpenTelemetry spans
 * and metrics named by the GenAI semantic conventions. Returns a function that removes it again.
 * Objects already instrumented (by an earlier call) are left as they are.
 * @example
 * const uninstrument = instrument(graph);
 * await graph.invoke('My card was charged twice');
 * uninstrument();
 */
export function instrument(target: Runnable, options: InstrumentOptions = {}): () => void {
  const telemetry = resolveTelemetry(options);
  const workflow = { linkResumedRuns: options.linkResumedRuns ?? true };
  const removers: (() => void)[] = [];
  const visit = (x: Runnable): void => {
    if (instrumented.has(x)) return;
    let remove: () => void;
    if (isAgent(x)) remove = instrumentAgent(x, telemetry);
    else if (isOrchestrator(x)) remove = instrumentWorkflow(x, telemetry, workflow);
    else {
      throw new ConfigurationError(
        `instrument() cannot instrument ${x.id}: it is an orchestrator without hooks and on/off listeners. Give it an Agent, a Graph, a Swarm, or an orchestrator with the same hooks and listeners.`,
      );
    }
    instrumented.add(x);
    removers.push(() => {
      remove();
      instrumented.delete(x);
    });
    for (const child of children(x)) visit(child);
  };
  try {
    visit(target);
  } catch (error) {
    for (const remove of removers) remove();
    throw error;
  }
  return () => {
    for (const remove of removers.splice(0)) remove();
  };
}
