import {
  AfterMultiAgentInvocationEvent,
  AfterNodeCallEvent,
  BeforeMultiAgentInvocationEvent,
  BeforeNodeCallEvent,
  type MultiAgentResult,
  type NodeTransition,
} from '@skein/core';
import { endNode, startNode } from './node-spans.js';
import type { Telemetry } from './options.js';
import { transitionEvent } from './transition-events.js';
import { guardErrors, nodeTargets, type Orchestrator } from './walk.js';
import { endWorkflowRun, newWorkflowRun, openRunSpan, type WorkflowRun } from './workflow-run.js';
import type { WorkflowScope } from './workflow-scope.js';

/** Options of one orchestrator's instrumentation. */
export interface WorkflowOptions {
  /** Root runs get a trace id from their start transition; resumed runs link to it (see run-anchor.ts). */
  readonly linkResumedRuns: boolean;
}

/** The instrumentation of one Graph or Swarm: the run going on now, and the hooks and listeners that follow it. */
class WorkflowSpans {
  readonly #s: WorkflowScope;
  #run: WorkflowRun | undefined;
  readonly #removers: (() => void)[];

  constructor(o: Orchestrator, t: Telemetry, options: WorkflowOptions) {
    this.#s = {
      o,
      t,
      linkResumedRuns: options.linkResumedRuns,
      targets: nodeTargets(o),
      kind: o.constructor.name.toLowerCase(),
    };
    this.#removers = [
      o.hooks.addCallback(BeforeMultiAgentInvocationEvent, () => void this.#ensureRun()),
      o.hooks.addCallback(BeforeNodeCallEvent, this.#beforeNode),
      o.hooks.addCallback(AfterNodeCallEvent, this.#afterNode),
      o.hooks.addCallback(AfterMultiAgentInvocationEvent, (e) => this.#finish(e.result, undefined)),
      guardErrors(
        o,
        () => this.#run !== undefined,
        (error) => this.#finish(undefined, error),
      ),
    ];
    o.on('transition', this.#onTransition);
  }

  /** Removes every hook and listener (and restores `invoke` and `stream`). */
  remove(): void {
    for (const remove of this.#removers) remove();
    this.#s.o.off('transition', this.#onTransition);
  }

  #ensureRun(): WorkflowRun {
    this.#run ??= newWorkflowRun(this.#s);
    return this.#run;
  }

  readonly #onTransition = (e: { transition: NodeTransition }): void => {
    const tr = e.transition;
    const r = this.#ensureRun();
    if (!r.span && tr.kind === 'resume') r.resumed = true;
    const span = openRunSpan(this.#s, r, tr.kind === 'start' ? tr : undefined);
    const { name, attributes } = transitionEvent(tr);
    span.addEvent(name, attributes);
  };

  readonly #beforeNode = (e: BeforeNodeCallEvent): void => {
    const r = this.#ensureRun();
    openRunSpan(this.#s, r);
    const count = (r.counts.get(e.nodeId) ?? 0) + 1;
    r.counts.set(e.nodeId, count);
    const exec = startNode(this.#s, e.nodeId, count, r.ctx, r.conversationId);
    r.nodes.get(e.nodeId)?.span.end();
    r.nodes.set(e.nodeId, exec);
  };

  readonly #afterNode = (e: AfterNodeCallEvent): void => {
    const exec = this.#run?.nodes.get(e.nodeId);
    if (!this.#run || !exec) return;
    this.#run.nodes.delete(e.nodeId);
    endNode(this.#s, exec, e);
  };

  #finish(result: MultiAgentResult | undefined, error: unknown): void {
    const r = this.#run;
    if (!r) return;
    this.#run = undefined;
    endWorkflowRun(this.#s, r, result, error);
  }
}

/**
 * Spans and metrics of one Graph or Swarm: `invoke_workflow {id}` per run (workflow-run.ts) and
 * `execute_node {id}` per node execution below it (node-spans.ts); transitions, handoffs,
 * interrupts and resumes as span events on the run (transition-events.ts). The run's span starts
 * at its first transition (whose `seq` and `at` identify the run across processes) or its first
 * node, whichever comes first, backdated to the run's start.
 */
export function instrumentWorkflow(o: Orchestrator, t: Telemetry, options: WorkflowOptions): () => void {
  const spans = new WorkflowSpans(o, t, options);
  return () => spans.remove();
}
