import type { Model, ModelRequest, ModelStreamEvent, StopReason, Usage } from '../model/model.js';
import type { JsonValue } from '../types/json.js';
import type { Message } from '../types/messages.js';

/** A tool call the scripted model makes. `input` may be a raw string to send invalid JSON. */
export interface ScriptedToolUse {
  name: string;
  input?: JsonValue;
  /** Raw JSON text sent as the input deltas instead of `JSON.stringify(input)`. */
  rawInput?: string;
  toolUseId?: string;
}

/** One scripted answer. */
export interface ScriptedAnswer {
  /** Text, streamed in chunks (a string is split by `chunkSize`; an array gives the chunks). */
  text?: string | string[];
  /** Reasoning text before the answer, with an optional signature. */
  reasoning?: { text: string; signature?: string };
  toolUses?: ScriptedToolUse[];
  /** Default: `tool_use` when there are tool uses, else `end_turn`. */
  stopReason?: StopReason;
  usage?: Partial<Usage>;
  /** Wait before the first event, in ms. */
  delayMs?: number;
  /** Wait between events, in ms. */
  chunkDelayMs?: number;
  /** Stop the stream after this many events, without messageStop (a cut connection). */
  cutAfterEvents?: number;
}

/** A scripted failure: the stream throws `error` (after `delayMs`, after `afterEvents` events). */
export interface ScriptedFailure {
  error: Error;
  delayMs?: number;
  afterEvents?: number;
}

/** One turn of the script: an answer, a failure, a plain text answer, or a function of the request. */
export type ScriptedTurn = string | ScriptedAnswer | ScriptedFailure | ((request: ModelRequest) => ScriptedTurn);

/** Options of {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  modelId?: string;
  /** Characters per text chunk when text is a string. Default 8. */
  chunkSize?: number;
  /** Characters per tool-input chunk (splits JSON mid-token). Default 7. */
  inputChunkSize?: number;
  /** Start the script over when it runs out (for benchmarks). Default false: running out is an error. */
  loop?: boolean;
  /** Keep a copy of each request's messages in `requests`. Default true; turn off for long runs. */
  record?: boolean;
}

/** What the scripted model saw in one call. */
export interface RecordedRequest {
  messages: Message[];
  systemPrompt: string | undefined;
  toolNames: string[];
  toolChoice: ModelRequest['toolChoice'];
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function chunks(text: string, size: number): string[] {
  if (text.length === 0) return [];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * A model that plays a script of turns through the same stream events a provider emits. For tests,
 * examples and benchmarks.
 * @example
 * const model = new ScriptedModel([
 *   { toolUses: [{ name: 'calculator', input: { expression: '25 * 48' } }] },
 *   'The answer is 1200.',
 * ]);
 */
export class ScriptedModel implements Model {
  readonly modelId: string;
  /** What each call received (when `record` is on). */
  readonly requests: RecordedRequest[] = [];
  readonly #script: ScriptedTurn[];
  readonly #options: Required<Omit<ScriptedModelOptions, 'modelId'>>;
  #next = 0;
  #ids = 0;

  constructor(script: ScriptedTurn[], options: ScriptedModelOptions = {}) {
    this.#script = script;
    this.modelId = options.modelId ?? 'scripted';
    this.#options = {
      chunkSize: options.chunkSize ?? 8,
      inputChunkSize: options.inputChunkSize ?? 7,
      loop: options.loop ?? false,
      record: options.record ?? true,
    };
  }

  /** How many calls the model has answered. */
  get callCount(): number {
    return this.#next;
  }

  /** Turns not yet played. */
  get remaining(): number {
    return this.#script.length - this.#next;
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    if (this.#options.record) {
      this.requests.push({
        messages: [...request.messages],
        systemPrompt: request.systemPrompt,
        toolNames: (request.toolSpecs ?? []).map((s) => s.name),
        toolChoice: request.toolChoice,
      });
    }
    const index = this.#next++;
    if (index >= this.#script.length && !this.#options.loop) {
      throw new Error(
        `ScriptedModel: the script has ${this.#script.length} turn(s) and call ${index + 1} asked for another.`,
      );
    }
    let turn = this.#script[index % this.#script.length] as ScriptedTurn;
    while (typeof turn === 'function') turn = turn(request);
    if (typeof turn === 'string') turn = { text: turn };
    const { signal } = request;
    if (turn.delayMs) await sleep(turn.delayMs, signal);
    if ('error' in turn) {
      yield* this.#events({ text: [] }, turn.afterEvents ?? 0, signal);
      throw turn.error;
    }
    yield* this.#events(turn, turn.cutAfterEvents, signal);
  }

  async *#events(
    answer: ScriptedAnswer,
    limit: number | undefined,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ModelStreamEvent> {
    let emitted = 0;
    const all = this.#build(answer);
    for (const event of all) {
      if (limit !== undefined && emitted >= limit) return;
      if (signal?.aborted) throw signal.reason as Error;
      if (answer.chunkDelayMs && emitted > 0) await sleep(answer.chunkDelayMs, signal);
      emitted++;
      yield event;
    }
  }

  #build(answer: ScriptedAnswer): ModelStreamEvent[] {
    const events: ModelStreamEvent[] = [{ messageStart: { role: 'assistant' } }];
    let index = 0;
    if (answer.reasoning) {
      events.push({
        contentBlockDelta: { contentBlockIndex: index, delta: { reasoningContent: { text: answer.reasoning.text } } },
      });
      if (answer.reasoning.signature) {
        events.push({
          contentBlockDelta: {
            contentBlockIndex: index,
            delta: { reasoningContent: { signature: answer.reasoning.signature } },
          },
        });
      }
      events.push({ contentBlockStop: { contentBlockIndex: index++ } });
    }
    const text =
      answer.text === undefined
        ? []
        : Array.isArray(answer.text)
          ? answer.text
          : chunks(answer.text, this.#options.chunkSize);
    if (text.length > 0) {
      for (const piece of text)
        events.push({ contentBlockDelta: { contentBlockIndex: index, delta: { text: piece } } });
      events.push({ contentBlockStop: { contentBlockIndex: index++ } });
    }
    for (const use of answer.toolUses ?? []) {
      const toolUseId = use.toolUseId ?? `tooluse_${++this.#ids}`;
      events.push({
        contentBlockStart: { contentBlockIndex: index, start: { toolUse: { toolUseId, name: use.name } } },
      });
      const raw = use.rawInput ?? JSON.stringify(use.input ?? {});
      for (const piece of chunks(raw, this.#options.inputChunkSize)) {
        events.push({ contentBlockDelta: { contentBlockIndex: index, delta: { toolUse: { input: piece } } } });
      }
      events.push({ contentBlockStop: { contentBlockIndex: index++ } });
    }
    const stopReason = answer.stopReason ?? ((answer.toolUses?.length ?? 0) > 0 ? 'tool_use' : 'end_turn');
    events.push({ messageStop: { stopReason } });
    const inputTokens = answer.usage?.inputTokens ?? 10;
    const outputTokens = answer.usage?.outputTokens ?? 5;
    const usage: Usage = {
      inputTokens,
      outputTokens,
      totalTokens: answer.usage?.totalTokens ?? inputTokens + outputTokens,
    };
    if (answer.usage?.cacheReadInputTokens !== undefined)
      usage.cacheReadInputTokens = answer.usage.cacheReadInputTokens;
    if (answer.usage?.cacheWriteInputTokens !== undefined)
      usage.cacheWriteInputTokens = answer.usage.cacheWriteInputTokens;
    events.push({ metadata: { usage, metrics: { latencyMs: 1 } } });
    return events;
  }
}
