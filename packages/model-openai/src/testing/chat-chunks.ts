/**
 * Builders of Chat Completions stream chunks in the shape OpenAI sends them (`object:
 * 'chat.completion.chunk'`, one choice, `delta`s, then a chunk with `finish_reason`, then — with
 * `stream_options.include_usage` — a chunk with empty `choices` and `usage`).
 */

export interface ChunkToolCall {
  id?: string;
  name: string;
  /** The JSON arguments, in the fragments the server sends. */
  args: string[];
}

export interface ChunkScript {
  reasoning?: string[];
  text?: string[];
  toolCalls?: ChunkToolCall[];
  /** Send the tool calls' fragments interleaved (round-robin) instead of one call after the other. */
  interleave?: boolean;
  finish?: string;
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number } | null;
  /** The reasoning field's name: `reasoning_content` (vLLM, DeepSeek, llama.cpp) or `reasoning` (OpenRouter). */
  reasoningField?: 'reasoning_content' | 'reasoning';
}

export type Chunk = Record<string, unknown>;

export function chatChunks(script: ChunkScript, id = 'chatcmpl-test', model = 'test-model'): Chunk[] {
  const base = { id, object: 'chat.completion.chunk', created: 1_700_000_000, model, system_fingerprint: 'fp_test' };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): Chunk => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const out: Chunk[] = [chunk({ role: 'assistant', content: '' })];
  for (const r of script.reasoning ?? []) out.push(chunk({ [script.reasoningField ?? 'reasoning_content']: r }));
  for (const t of script.text ?? []) out.push(chunk({ content: t }));
  const calls = script.toolCalls ?? [];
  const starts = calls.map((c, index) =>
    chunk({
      tool_calls: [
        {
          index,
          ...(c.id === undefined ? {} : { id: c.id }),
          type: 'function',
          function: { name: c.name, arguments: '' },
        },
      ],
    }),
  );
  const fragments = calls.map((c, index) =>
    c.args.map((a) => chunk({ tool_calls: [{ index, function: { arguments: a } }] })),
  );
  if (script.interleave) {
    out.push(...starts);
    for (let i = 0; fragments.some((f) => i < f.length); i++)
      for (const f of fragments) if (f[i]) out.push(f[i] as Chunk);
  } else {
    calls.forEach((_, index) => out.push(starts[index] as Chunk, ...(fragments[index] ?? [])));
  }
  out.push(chunk({}, script.finish ?? (calls.length > 0 ? 'tool_calls' : 'stop')));
  if (script.usage !== null) {
    const u = script.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
    out.push({
      ...base,
      choices: [],
      usage: {
        prompt_tokens: u.prompt_tokens,
        completion_tokens: u.completion_tokens,
        total_tokens: u.prompt_tokens + u.completion_tokens,
        prompt_tokens_details: { cached_tokens: u.cached_tokens ?? 0 },
      },
    });
  }
  return out;
}

/** An OpenAI error body: `{ "error": { message, type, param, code } }`. */
export function errorBody(
  message: string,
  type = 'invalid_request_error',
  code: string | null = null,
): Record<string, unknown> {
  return { error: { message, type, param: null, code } };
}

/** Encodes chunks exactly as the API writes them: `data: <json>\n\n` each, then `data: [DONE]\n\n`. */
export function encodeChunks(chunks: readonly Chunk[], done = true): string {
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');
}
