/**
 * A Graph or Swarm run as a Restate workflow keyed by run id: `run` executes the orchestrator once
 * per id with every model and tool call journaled, so a worker killed mid-node is replaced by a
 * retry that replays the finished steps (no model or tool is called again for them) and goes on.
 */
import * as restate from '@restatedev/restate-sdk';
import type { MultiAgentBase, MultiAgentResult, NodeTransition, Usage } from '@skein/core';
import { runInScope } from './durable-scope.js';
import { prepareTree } from './prepare-tree.js';

/** What a workflow run answers: the orchestrator's result without the in-process objects. */
export interface RunReply {
  status: MultiAgentResult['status'];
  /** Final text per node that ran. */
  texts: Record<string, string>;
  transitions: NodeTransition[];
  usage: Usage;
  executionCount: number;
  failureReason?: string;
}

function taskOf(input: unknown): string {
  if (typeof input === 'string' && input.length > 0) return input;
  if (typeof input === 'object' && input !== null && typeof (input as { task?: unknown }).task === 'string') return (input as { task: string }).task;
  throw new restate.TerminalError(`run takes a non-empty string or { "task": string } (got ${JSON.stringify(input)}).`, { errorCode: 400 });
}

function replyOf(result: MultiAgentResult): RunReply {
  const texts = Object.fromEntries(Object.entries(result.results).map(([id, r]) => [id, r.text]));
  return {
    status: result.status,
    texts,
    transitions: result.transitions,
    usage: result.accumulatedUsage,
    executionCount: result.executionCount,
    ...(result.failureReason ? { failureReason: result.failureReason } : {}),
  };
}

/**
 * Serves `build()`'s Graph or Swarm as the workflow `name`; each workflow id is one run.
 * @example
 * restate.endpoint().bind(restateOrchestrator('desk', () => buildGraph())).listen(9080);
 * // curl localhost:8080/desk/run-1/run --json '"I was charged twice"'
 */
export function restateOrchestrator<N extends string>(name: N, build: () => MultiAgentBase | Promise<MultiAgentBase>) {
  return restate.workflow({
    name,
    handlers: {
      async run(ctx: restate.WorkflowContext, input: string | { task: string }): Promise<RunReply> {
        const task = taskOf(input);
        const orchestrator = await build();
        prepareTree(orchestrator);
        return replyOf(await runInScope(ctx, () => orchestrator.invoke(task)));
      },
    },
  });
}

/** `restateOrchestrator` for a Graph. */
export const restateGraph = restateOrchestrator;
/** `restateOrchestrator` for a Swarm. */
export const restateSwarm = restateOrchestrator;
