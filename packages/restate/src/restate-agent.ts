/**
 * An agent conversation as a Restate virtual object keyed by conversation id. Restate runs one
 * message of a conversation at a time (the object's single writer), keeps the conversation's
 * messages and agent state in the object's state, and journals every model and tool call, so a
 * worker that dies mid-message is replaced by a retry that replays what finished and goes on.
 */
import * as restate from '@restatedev/restate-sdk';
import {
  addUsage,
  emptyUsage,
  type Agent,
  type JsonObject,
  type Message,
  type StopReason,
  type Usage,
} from '@skein/core';
import type { PendingReply, RespondInput } from './answers.js';
import { runInScope } from './durable-scope.js';
import { objectPendingOf, objectRespondTo, waitForObjectAnswers } from './object-waits.js';
import { prepareTree } from './prepare-tree.js';

/** What `send` answers. */
export interface AgentReply {
  text: string;
  stopReason: StopReason;
  usage: Usage;
  /** Messages in the conversation after this one. */
  messageCount: number;
}

/** What `send` takes: the customer's text, or `{ prompt }`. */
export type AgentMessage = string | { prompt: string };

function promptOf(input: unknown): string {
  if (typeof input === 'string' && input.length > 0) return input;
  if (typeof input === 'object' && input !== null && typeof (input as { prompt?: unknown }).prompt === 'string')
    return (input as { prompt: string }).prompt;
  throw new restate.TerminalError(
    `send takes a non-empty string or { "prompt": string } (got ${JSON.stringify(input)}).`,
    { errorCode: 400 },
  );
}

/**
 * Serves `build()`'s agent as the virtual object `name`: `send` (one message, exclusive per key),
 * `history` (the stored messages, shared: readable while a message runs), `reset` (forget), and
 * for a message that waits for a person (a tool's `needsApproval`, `context.interrupt`): `pending`
 * (what it waits for) and `respond` (the answers; the message goes on where it waited).
 * `build` is called for every message and must return a fresh agent each time.
 * @example
 * restate.endpoint().bind(restateAgent('support', () => new Agent({ model, tools }))).listen(9080);
 * // curl localhost:8080/support/customer-42/send --json '"I was charged twice"'
 */
export function restateAgent<N extends string>(name: N, build: () => Agent | Promise<Agent>) {
  return restate.object({
    name,
    handlers: {
      async send(ctx: restate.ObjectContext, input: AgentMessage): Promise<AgentReply> {
        const prompt = promptOf(input);
        const agent = await build();
        prepareTree(agent);
        const messages = await ctx.get<Message[]>('messages');
        const state = await ctx.get<JsonObject>('state');
        if (messages) agent.messages = messages;
        if (state) agent.state.replace(state);
        let result = await runInScope(ctx, () => agent.invoke(prompt));
        const usage = emptyUsage();
        addUsage(usage, result.metrics.usage);
        while (result.stopReason === 'interrupt' && result.interrupts.length > 0) {
          const answers = await waitForObjectAnswers(ctx, result.interrupts);
          result = await runInScope(ctx, () => agent.invoke(answers));
          addUsage(usage, result.metrics.usage);
        }
        ctx.set('messages', agent.messages);
        ctx.set('state', agent.state.get());
        return { text: String(result), stopReason: result.stopReason, usage, messageCount: agent.messages.length };
      },
      /** What the conversation's current message waits for (empty when nothing). */
      pending: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext): Promise<PendingReply> => objectPendingOf(ctx),
      ),
      /** Answers interrupts of the waiting message; it goes on once all are answered. */
      respond: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext, input: RespondInput): Promise<PendingReply> =>
          objectRespondTo(ctx, input),
      ),
      history: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext): Promise<Message[]> => (await ctx.get<Message[]>('messages')) ?? [],
      ),
      async reset(ctx: restate.ObjectContext): Promise<void> {
        ctx.clearAll();
      },
    },
  });
}
