import { Agent, tool } from '@skein/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AnthropicModel } from './index.js';
import { AnthropicTestServer, answerEvents, type RecordedHttpRequest, type StreamReply } from './testing/index.js';

let server: AnthropicTestServer;
beforeEach(async () => {
  server = await AnthropicTestServer.start();
});
afterEach(async () => {
  await server.close();
});

type Body = { system?: unknown; tools?: unknown[]; messages: { content: unknown }[] };

/** A block without its cache marker: the cache keys on content, not on where the breakpoints are. */
function unmarked(block: unknown): unknown {
  if (typeof block !== 'object' || block === null || !('cache_control' in block)) return block;
  const { cache_control: _, ...rest } = block as Record<string, unknown>;
  return rest;
}

/**
 * Answers like the API's prompt cache: the request is tools, then system, then the message blocks;
 * each `cache_control` writes the prefix ending there; a request reads the longest cached prefix
 * ending at or before its last breakpoint (the API looks back from each breakpoint). Tokens are
 * characters / 4 of the prefix's JSON.
 */
function cachingServer(answers: StreamReply['events'][]): (request: RecordedHttpRequest) => StreamReply {
  const cached = new Set<string>();
  let turn = 0;
  return (request) => {
    const body = request.body as Body;
    const blocks: unknown[] = [
      ...(body.tools ?? []),
      ...(Array.isArray(body.system) ? body.system : body.system ? [body.system] : []),
      ...body.messages.flatMap((m) => m.content as unknown[]),
    ];
    const parts = blocks.map(unmarked);
    const key = (end: number): string => JSON.stringify(parts.slice(0, end));
    const marks = blocks.flatMap((b, i) =>
      typeof b === 'object' && b !== null && 'cache_control' in b ? [i + 1] : [],
    );
    const lastMark = marks.at(-1) ?? 0;
    let read = 0;
    for (let end = lastMark; end > 0; end--)
      if (cached.has(key(end))) {
        read = end;
        break;
      }
    for (const end of marks) cached.add(key(end));
    const tokens = (end: number): number => Math.ceil(key(end).length / 4);
    const readTokens = read > 0 ? tokens(read) : 0;
    const writeTokens = lastMark > read ? tokens(lastMark) - readTokens : 0;
    const usage = {
      input_tokens: Math.max(1, tokens(parts.length) - readTokens - writeTokens),
      output_tokens: 5,
      cache_read_input_tokens: readTokens,
      cache_creation_input_tokens: writeTokens,
    };
    const events = (answers[turn++] ?? []).map((e) =>
      typeof e !== 'string' && e.event === 'message_start'
        ? { ...e, data: { ...(e.data as object), message: { ...(e.data as { message: object }).message, usage } } }
        : e,
    );
    return { events };
  };
}

const lookup = tool({
  name: 'lookup_order',
  description: 'Looks up an order by id and returns its status and amount.',
  inputSchema: z.object({ orderId: z.string() }),
  callback: ({ orderId }) => ({ orderId, status: 'shipped', amountEur: 12 }),
});

const SYSTEM = 'You are the support desk of a small shop. Answer briefly. '.repeat(20);

async function converse(
  cache: 'auto' | 'off',
): Promise<{ bodies: Body[]; reads: number[]; budgetReads: number | undefined }> {
  const answers = [
    answerEvents({ blocks: [{ toolUse: { id: 'tu_1', name: 'lookup_order', inputChunks: ['{"orderId":"7"}'] } }] }),
    answerEvents({ blocks: [{ text: ['Order 7 shipped.'] }] }),
    answerEvents({ blocks: [{ text: ['You are welcome.'] }] }),
  ];
  const reply = cachingServer(answers);
  server.enqueue(reply, reply, reply);
  const model = new AnthropicModel({ cache, clientOptions: { apiKey: 'dummy', baseURL: server.url } });
  const agent = new Agent({ model, systemPrompt: SYSTEM, tools: [lookup] });
  const first = await agent.invoke('Where is order 7?', { budget: { totalTokens: 1e6 } });
  const second = await agent.invoke('Thanks!', { budget: { totalTokens: 1e6 } });
  return {
    bodies: server.requests.map((r) => r.body as Body),
    reads: [first.metrics.usage.cacheReadInputTokens, second.metrics.usage.cacheReadInputTokens],
    budgetReads: second.usage?.spend.cacheReadInputTokens,
  };
}

const breakpoints = (body: Body): number => JSON.stringify(body).split('"cache_control"').length - 1;

describe("cache: 'auto' on the wire", () => {
  it('places breakpoints after the system prompt, after the tools and on the last message, stable across turns', async () => {
    const { bodies } = await converse('auto');
    expect(bodies).toHaveLength(3);
    for (const body of bodies) {
      expect(body.system).toEqual([{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }]);
      expect(body.tools?.at(-1)).toMatchObject({ name: 'lookup_order', cache_control: { type: 'ephemeral' } });
      const last = body.messages.at(-1)?.content as Record<string, unknown>[];
      expect(last.at(-1)?.['cache_control']).toEqual({ type: 'ephemeral' });
      expect(breakpoints(body)).toBe(3);
    }
    // The cached prefix is the same bytes on every turn.
    const prefix = (b: Body): string => JSON.stringify([b.system, b.tools]);
    expect(new Set(bodies.map(prefix)).size).toBe(1);
  });

  it('reads the cache on every turn after the first, in usage and in the budget', async () => {
    const { reads, budgetReads } = await converse('auto');
    expect(reads[0]).toBeGreaterThan(0); // the tool turn's second call read what the first wrote
    expect(reads[1]).toBeGreaterThan(reads[0] as number);
    expect(budgetReads).toBe(reads[1]);
  });

  it('without it, nothing is marked and nothing is read', async () => {
    const { bodies, reads } = await converse('off');
    expect(bodies.map(breakpoints)).toEqual([0, 0, 0]);
    expect(reads).toEqual([0, 0]);
  });

  it("keeps the caller's own cache points, dropping the oldest beyond Anthropic's 4", async () => {
    server.enqueue({ events: answerEvents({ blocks: [{ text: ['ok'] }] }) });
    const model = new AnthropicModel({ cache: 'auto', clientOptions: { apiKey: 'dummy', baseURL: server.url } });
    const cp = { cachePoint: { type: 'default' as const } };
    const messages = [
      { role: 'user' as const, content: [{ text: 'one' }, cp] },
      { role: 'assistant' as const, content: [{ text: 'two' }, cp] },
      { role: 'user' as const, content: [{ text: 'three' }] },
    ];
    for await (const _ of model.stream({
      messages,
      systemPrompt: 'sys',
      toolSpecs: [{ name: 't', description: 'd', inputSchema: { json: { type: 'object' } } }],
    }))
      void _;
    const body = server.body() as unknown as Body;
    expect(breakpoints(body)).toBe(4);
    expect(JSON.stringify(body.messages[0])).not.toContain('cache_control');
    expect(JSON.stringify(body.messages[1])).toContain('cache_control');
  });

  it("rejects a cache setting that isn't 'auto' or 'off'", () => {
    expect(() => new AnthropicModel({ cache: 'on' as 'auto' })).toThrow(/cache must be 'auto' or 'off'/);
  });
});
