import {
  AfterInvocationEvent,
  AfterModelCallEvent,
  AfterToolCallEvent,
  BeforeInvocationEvent,
  BeforeModelCallEvent,
  BeforeToolCallEvent,
  type Agent,
  type AgentStreamEvent,
} from '@skein/core';
import { endAgentRun, startAgentRun, type AgentRun } from './agent-run.js';
import type { AgentScope } from './agent-scope.js';
import { recordAttempt } from './attempt-spans.js';
import { endChat, readChatEvent, startChat } from './chat-spans.js';
import { ATTR, EVENT } from './conventions.js';
import { errorType } from './errors.js';
import type { Telemetry } from './options.js';
import { endTool, startTool } from './tool-spans.js';
import { addCounts } from './usage.js';

type StreamEvent<T extends AgentStreamEvent['type']> = Extract<AgentStreamEvent, { type: T }>;

/**
 * The instrumentation of one agent: the invocation running now, and the hooks and listeners that
 * follow it. Per invocation it listens always; per model call and tool use only while something
 * records spans or metrics.
 */
class AgentSpans {
  readonly #s: AgentScope;
  #run: AgentRun | undefined;
  #perCycle: (() => void)[] = [];
  readonly #removers: (() => void)[];

  constructor(agent: Agent, t: Telemetry) {
    this.#s = {
      agent,
      t,
      metricBase: {
        [ATTR.providerName]: t.providerOf(agent.model),
        [ATTR.requestModel]: agent.model.modelId,
      },
    };
    // Per invocation: these two hooks and the interrupt listener (which also keeps the agent's listener
    // registry in place, so that listeners attached when an invocation starts hear its events).
    this.#removers = [
      agent.hooks.addCallback(BeforeInvocationEvent, this.#start),
      agent.hooks.addCallback(AfterInvocationEvent, this.#finish),
    ];
    agent.on('interrupt', this.#onInterrupt);
  }

  /** Removes every hook and listener. */
  remove(): void {
    for (const remove of this.#removers) remove();
    this.#detach();
    this.#s.agent.off('interrupt', this.#onInterrupt);
  }

  readonly #start = (): void => {
    const run = startAgentRun(this.#s);
    this.#run = run;
    // Nothing records spans or metrics (no provider registered, or an unsampled trace): the loop runs
    // without our per-cycle hooks and listeners, as if uninstrumented.
    if (run.span.isRecording() || this.#s.t.metricsOn) this.#attach();
  };

  readonly #finish = (e: AfterInvocationEvent): void => {
    if (!this.#run) return;
    endAgentRun(this.#s, this.#run, e);
    this.#run = undefined;
    this.#detach();
  };

  readonly #beforeModel = (): void => {
    const run = this.#run;
    if (run) run.chat = startChat(this.#s, run.ctx, run.conversationId);
  };

  readonly #onStream = (e: StreamEvent<'modelStreamEvent'>): void => {
    const call = this.#run?.chat;
    if (call) readChatEvent(call, e.event);
  };

  readonly #afterModel = (e: AfterModelCallEvent): void => {
    const run = this.#run;
    const call = run?.chat;
    if (!run || !call) return;
    run.chat = undefined;
    if (e.stopResponse) {
      run.cycles++;
      addCounts(run.tokens, call.tokens);
    }
    endChat(this.#s, call, e);
  };

  readonly #beforeTool = (e: BeforeToolCallEvent): void => {
    const run = this.#run;
    if (run) run.tools.set(e.toolUse.toolUseId, startTool(this.#s, e, run.ctx, run.conversationId));
  };

  readonly #afterTool = (e: AfterToolCallEvent): void => {
    const call = this.#run?.tools.get(e.toolUse.toolUseId);
    if (!this.#run || !call) return;
    this.#run.tools.delete(e.toolUse.toolUseId);
    endTool(this.#s, call, e);
  };

  readonly #onRetry = (e: StreamEvent<'modelRetry'>): void => {
    this.#run?.span.addEvent(EVENT.retry, {
      [ATTR.attempt]: e.attempt,
      [ATTR.delayMs]: e.delayMs,
      [ATTR.errorType]: errorType(e.error),
      [ATTR.discarded]: e.discardedPartialAnswer,
    });
  };

  readonly #onAttempt = (e: StreamEvent<'modelAttempt'>): void => {
    const run = this.#run;
    if (run?.chat) recordAttempt(this.#s, run.chat, run.ctx, e);
  };

  readonly #onInterrupt = (e: StreamEvent<'interrupt'>): void => {
    this.#run?.span.addEvent(EVENT.interrupt, {
      [ATTR.interruptIds]: e.interrupts.map((i) => i.id),
      [ATTR.interruptNames]: e.interrupts.map((i) => i.name),
    });
  };

  #attach(): void {
    const { agent } = this.#s;
    this.#perCycle = [
      agent.hooks.addCallback(BeforeModelCallEvent, this.#beforeModel),
      agent.hooks.addCallback(AfterModelCallEvent, this.#afterModel),
      agent.hooks.addCallback(BeforeToolCallEvent, this.#beforeTool),
      agent.hooks.addCallback(AfterToolCallEvent, this.#afterTool),
    ];
    agent.on('modelStreamEvent', this.#onStream).on('modelRetry', this.#onRetry).on('modelAttempt', this.#onAttempt);
  }

  #detach(): void {
    for (const remove of this.#perCycle.splice(0)) remove();
    this.#s.agent
      .off('modelStreamEvent', this.#onStream)
      .off('modelRetry', this.#onRetry)
      .off('modelAttempt', this.#onAttempt);
  }
}

/**
 * Spans and metrics of one agent: `invoke_agent {name}` per invocation (agent-run.ts), `chat
 * {model}` per model call (chat-spans.ts) and `execute_tool {tool}` per tool use (tool-spans.ts)
 * below it. Hooks mark the boundaries (they carry errors and results); listeners read the model's
 * stream (usage, finish reason, first chunk), retries and interrupts. Returns a function that
 * removes all of it.
 */
export function instrumentAgent(agent: Agent, t: Telemetry): () => void {
  const spans = new AgentSpans(agent, t);
  return () => spans.remove();
}
