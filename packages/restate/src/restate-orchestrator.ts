/**
 * A Graph or Swarm run as a Restate workflow keyed by run id: `run` executes the orchestrator once
 * per id with every model and tool call journaled, so a worker killed mid-node is replaced by a
 * retry that replays the finished steps (no model or tool is called again for them) and goes on.
 */
import * as restate from '@restatedev/restate-sdk';
import type { Interrupt, MultiAgentBase, MultiAgentResult, NodeTransition, Usage } from '@skein/core';
import type { PendingReply, RespondInput } from './answers.js';
import { runInScope, type NodeCaller, type NodeReply, type NodeRequest } from './durable-scope.js';
import { prepareTree } from './prepare-tree.js';
import { runNodeHere, spreadNodes, type SpreadMode } from './spread-nodes.js';
import { clearPending, pendingOf, respondTo, waitForAnswers } from './workflow-waits.js';

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
  if (typeof input === 'object' && input !== null && typeof (input as { task?: unknown }).task === 'string')
    return (input as { task: string }).task;
  throw new restate.TerminalError(
    `run takes a non-empty string or { "task": string } (got ${JSON.stringify(input)}).`,
    { errorCode: 400 },
  );
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

/** How a workflow runs its orchestrator. */
export interface RestateOrchestratorOptions {
  /**
   * Which agent nodes of a Graph run as their own Restate call (the workflow's `node` handler), so
   * they may run on another worker: `parallel` (default) those that can run alongside another node
   * (fan-out targets, several entry points), `all` every one, `none` none (every node runs in the
   * worker that runs the workflow). A call costs a few ms more per node than a node run in place.
   */
  spreadNodes?: SpreadMode;
}

/** The interrupts a paused result waits for (none when it did not pause). */
function interruptsOf(result: MultiAgentResult): Interrupt[] {
  return result.status === 'interrupted' ? [...(result.interrupts ?? [])] : [];
}

/**
 * Serves `build()`'s Graph or Swarm as the workflow `name`; each workflow id is one run. A run that
 * pauses for a person waits inside Restate (a durable promise per interrupt) until `respond`
 * answered every interrupt of the pause, then goes on where it waited; `pending` lists what waits.
 * @example
 * restate.endpoint().bind(restateOrchestrator('desk', () => buildGraph())).listen(9080);
 * // curl localhost:8080/desk/run-1/run/send --json '"I was charged twice"'
 * // curl localhost:8080/desk/run-1/pending
 * // curl localhost:8080/desk/run-1/respond --json '{"interruptId": "t1#approval", "response": {"approved": true}}'
 */
export function restateOrchestrator<N extends string>(
  name: N,
  build: () => MultiAgentBase | Promise<MultiAgentBase>,
  options: RestateOrchestratorOptions = {},
) {
  const spread = options.spreadNodes ?? 'parallel';
  const nodeCaller =
    (ctx: restate.WorkflowContext): NodeCaller =>
    (request) =>
      ctx.genericCall<NodeRequest, NodeReply>({
        service: name,
        method: 'node',
        key: ctx.key,
        parameter: request,
        inputSerde: restate.serde.json as restate.Serde<NodeRequest>,
        outputSerde: restate.serde.json as restate.Serde<NodeReply>,
      });
  return restate.workflow({
    name,
    handlers: {
      run: restate.handlers.workflow.workflow(
        async (ctx: restate.WorkflowContext, input: string | { task: string }): Promise<RunReply> => {
          const task = taskOf(input);
          const orchestrator = await build();
          prepareTree(orchestrator);
          spreadNodes(orchestrator, spread);
          const callNode = spread === 'none' ? undefined : nodeCaller(ctx);
          let result = await runInScope(ctx, () => orchestrator.invoke(task), callNode);
          for (
            let round = 1, waiting = interruptsOf(result);
            waiting.length > 0;
            round++, waiting = interruptsOf(result)
          ) {
            const answers = await waitForAnswers(ctx, round, waiting);
            result = await runInScope(ctx, () => orchestrator.invoke(answers), callNode);
          }
          clearPending(ctx);
          return replyOf(result);
        },
      ),
      /** Runs one agent node of a run (called by the run itself when nodes are spread; not for clients). */
      node: restate.handlers.workflow.shared(
        { ingressPrivate: true },
        async (ctx: restate.WorkflowSharedContext, request: NodeRequest): Promise<NodeReply> => {
          const root = await build();
          prepareTree(root);
          return runNodeHere(ctx, root, request);
        },
      ),
      /** What the run waits for: the unanswered interrupts of its current pause (empty when none). */
      pending: restate.handlers.workflow.shared(
        async (ctx: restate.WorkflowSharedContext): Promise<PendingReply> => pendingOf(ctx),
      ),
      /** Answers interrupts of the current pause; the run goes on once all are answered. Returns what still waits. */
      respond: restate.handlers.workflow.shared(
        async (ctx: restate.WorkflowSharedContext, input: RespondInput): Promise<PendingReply> => respondTo(ctx, input),
      ),
    },
  });
}

/** `restateOrchestrator` for a Graph. @alias */
export const restateGraph = restateOrchestrator;
/** `restateOrchestrator` for a Swarm. @alias */
export const restateSwarm = restateOrchestrator;
