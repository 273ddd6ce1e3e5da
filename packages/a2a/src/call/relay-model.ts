/**
 * The model of a remote agent's stand-in: it decides nothing. Given a conversation, it asks its one
 * tool to send the new part of it to the remote agent; given that tool's result, it answers with it
 * (reporting the tokens the remote agent reported). So a remote agent is a skein Agent: a Graph node,
 * a Swarm member; skein's interrupts, sessions, budgets and traces work as for any agent. The call is
 * recorded under the tool call's idempotency key, so a node re-run after a crash, or a call cut by a
 * stop and asked again with the same input, finds the same remote task instead of sending again.
 */
import { createHash } from 'node:crypto';
import type { Message, Model, ModelRequest, ModelStreamEvent, ToolResult } from '@skein/core';
import { RemoteAgentError, type RemoteFailure } from '../errors.js';
import { blocksText, transcript } from '../wire/parts.js';

/** The name of the stand-in's tool. */
export const CALL_TOOL = 'a2a_call';
/** Tool use ids of the stand-in start with this. */
const CALL_ID_PREFIX = 'a2a_';

/** What the tool's result carries besides the answer. */
export interface CallResultData {
  taskId?: string;
  usage?: { inputTokens: number; outputTokens: number; totalTokens: number };
  error?: { detail: string; failure: RemoteFailure; a2aCode?: number; agent: string; url: string };
}

function ourResult(message: Message | undefined): ToolResult | undefined {
  if (message?.role !== 'user') return undefined;
  for (const b of message.content)
    if ('toolResult' in b && b.toolResult.toolUseId.startsWith(CALL_ID_PREFIX)) return b.toolResult;
  return undefined;
}

function dataOf(result: ToolResult): CallResultData {
  for (const c of result.content)
    if ('json' in c && c.json && typeof c.json === 'object' && 'a2a' in c.json)
      return (c.json as unknown as { a2a: CallResultData }).a2a;
  return {};
}

/** The part of the conversation the remote agent has not seen: after the stand-in's last answer. */
function newPart(messages: readonly Message[]): Message[] {
  for (let i = messages.length - 1; i > 0; i--) {
    const m = messages[i];
    if (m?.role === 'assistant' && !m.content.some((b) => 'toolUse' in b) && ourResult(messages[i - 1]))
      return messages.slice(i + 1);
  }
  return [...messages];
}

export class RelayModel implements Model {
  readonly modelId: string;
  readonly providerName = 'a2a';

  constructor(agentName: string) {
    this.modelId = `a2a:${agentName}`;
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const result = ourResult(request.messages.at(-1));
    yield { messageStart: { role: 'assistant' } };
    // A call cut before it answered (a stop, a crash: an error result with nothing of the remote agent)
    // is asked again with the same input, so its idempotency key finds the same remote task.
    const cut = result && result.status === 'error' && !dataOf(result).error ? cutInput(request, result) : undefined;
    if (cut !== undefined) return yield* callEvents(request, cut);
    if (result) {
      const data = dataOf(result);
      if (result.status === 'error') {
        const e = data.error;
        const text = result.content.map((c) => ('text' in c ? c.text : '')).join('');
        throw e
          ? new RemoteAgentError(e.detail, {
              agent: e.agent,
              url: e.url,
              taskId: data.taskId,
              failure: e.failure,
              a2aCode: e.a2aCode,
            })
          : new Error(text);
      }
      const text = result.content.map((c) => ('text' in c ? c.text : '')).join('');
      yield { contentBlockDelta: { contentBlockIndex: 0, delta: { text } } };
      yield { contentBlockStop: { contentBlockIndex: 0 } };
      yield { messageStop: { stopReason: 'end_turn' } };
      const usage = data.usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
      yield { metadata: { usage, metrics: { latencyMs: 0 } } };
      return;
    }
    const message = transcript(newPart(request.messages)) || blocksText(request.messages.at(-1)?.content ?? []);
    yield* callEvents(request, JSON.stringify({ message }));
  }
}

/** The events of a call of the stand-in's tool with `input` (JSON text). */
function* callEvents(request: ModelRequest, input: string): Generator<ModelStreamEvent> {
  const digest = createHash('sha256').update(JSON.stringify(request.messages)).digest('hex').slice(0, 32);
  const toolUseId = `${CALL_ID_PREFIX}${digest}`;
  yield { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId, name: CALL_TOOL } } } };
  yield { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input } } } };
  yield { contentBlockStop: { contentBlockIndex: 0 } };
  yield { messageStop: { stopReason: 'tool_use' } };
  yield { metadata: { usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, metrics: { latencyMs: 0 } } };
}

/** The input of the cut call `result` answers (from the assistant message before it), at most three times in a row. */
function cutInput(request: ModelRequest, result: ToolResult): string | undefined {
  const messages = request.messages;
  let attempts = 0;
  for (let i = messages.length - 1; i > 0 && ourResult(messages[i]); i -= 2) attempts++;
  if (attempts > 3) return undefined;
  const asked = messages.at(-2)?.content.find((b) => 'toolUse' in b && b.toolUse.toolUseId === result.toolUseId);
  return asked && 'toolUse' in asked ? JSON.stringify(asked.toolUse.input) : undefined;
}
