import { Agent, tool } from '@skein/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startHarness, type Harness } from './testing/harness.js';
import {
  textFrames,
  toolUseFrames,
  type WireFrame,
  type WireReply,
  type WireRequest,
} from './testing/bedrock-wire-server.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

type Body = { system?: object[]; toolConfig?: { tools: object[] }; messages: { content: object[] }[] };
const isPoint = (b: object): boolean => 'cachePoint' in b;

/**
 * Answers like Bedrock's prompt cache: the request is tools, system, then message blocks; each cache
 * point writes the prefix before it; a request reads the longest cached prefix ending at or before
 * its last cache point. Tokens are characters / 4 of the prefix's JSON; usage goes in `metadata`.
 */
function cachingServer(answers: ((usage: Record<string, number>) => WireFrame[])[]): (r: WireRequest) => WireReply {
  const cached = new Set<string>();
  let turn = 0;
  return (request) => {
    const body = request.body as Body;
    const blocks = [
      ...(body.toolConfig?.tools ?? []),
      ...(body.system ?? []),
      ...body.messages.flatMap((m) => m.content),
    ];
    const parts = blocks.filter((b) => !isPoint(b));
    const marks: number[] = [];
    let seen = 0;
    for (const b of blocks)
      if (isPoint(b)) marks.push(seen);
      else seen++;
    const key = (end: number): string => JSON.stringify(parts.slice(0, end));
    const lastMark = marks.at(-1) ?? 0;
    let read = 0;
    for (let end = lastMark; end > 0; end--)
      if (cached.has(key(end))) {
        read = end;
        break;
      }
    for (const end of marks) cached.add(key(end));
    const tokens = (end: number): number => Math.ceil(key(end).length / 4);
    const cacheReadInputTokens = read > 0 ? tokens(read) : 0;
    const cacheWriteInputTokens = lastMark > read ? tokens(lastMark) - cacheReadInputTokens : 0;
    const inputTokens = Math.max(1, tokens(parts.length) - cacheReadInputTokens - cacheWriteInputTokens);
    const usage = {
      inputTokens,
      outputTokens: 5,
      cacheReadInputTokens,
      cacheWriteInputTokens,
      totalTokens: inputTokens + 5 + cacheReadInputTokens + cacheWriteInputTokens,
    };
    return { frames: (answers[turn++] ?? (() => []))(usage) };
  };
}

const toolTurn = (usage: Record<string, number>): WireFrame[] => [
  { event: 'messageStart', body: { role: 'assistant' } },
  ...toolUseFrames(0, 'tu_1', 'lookup_order', ['{"orderId":"7"}']),
  { event: 'messageStop', body: { stopReason: 'tool_use' } },
  { event: 'metadata', body: { usage, metrics: { latencyMs: 3 } } },
];

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
  const reply = cachingServer([
    toolTurn,
    (u) => textFrames(['Order 7 shipped.'], u),
    (u) => textFrames(['Welcome.'], u),
  ]);
  h.server.reply(reply, reply, reply);
  const agent = new Agent({ model: h.model({ cache }), systemPrompt: SYSTEM, tools: [lookup] });
  const first = await agent.invoke('Where is order 7?', { budget: { totalTokens: 1e6 } });
  const second = await agent.invoke('Thanks!', { budget: { totalTokens: 1e6 } });
  return {
    bodies: h.server.requests.map((r) => r.body as Body),
    reads: [first.metrics.usage.cacheReadInputTokens, second.metrics.usage.cacheReadInputTokens],
    budgetReads: second.usage?.spend.cacheReadInputTokens,
  };
}

const points = (body: Body): number => JSON.stringify(body).split('"cachePoint"').length - 1;

describe("cache: 'auto' on the wire", () => {
  it('puts cache points after the system prompt, after the tools and at the end of the last message, stable across turns', async () => {
    const { bodies } = await converse('auto');
    expect(bodies).toHaveLength(3);
    for (const body of bodies) {
      expect(body.system).toEqual([{ text: SYSTEM }, { cachePoint: { type: 'default' } }]);
      expect(body.toolConfig?.tools.at(-1)).toEqual({ cachePoint: { type: 'default' } });
      expect(body.messages.at(-1)?.content.at(-1)).toEqual({ cachePoint: { type: 'default' } });
      expect(points(body)).toBe(3);
    }
    expect(new Set(bodies.map((b) => JSON.stringify([b.system, b.toolConfig]))).size).toBe(1);
  });

  it('reads the cache on every turn after the first, in usage and in the budget', async () => {
    const { reads, budgetReads } = await converse('auto');
    expect(reads[0]).toBeGreaterThan(0);
    expect(reads[1]).toBeGreaterThan(reads[0] as number);
    expect(budgetReads).toBe(reads[1]);
  });

  it('without it, nothing is marked and nothing is read', async () => {
    const { bodies, reads } = await converse('off');
    expect(bodies.map(points)).toEqual([0, 0, 0]);
    expect(reads).toEqual([0, 0]);
  });

  it("keeps the caller's own cache points, dropping the oldest beyond Bedrock's 4", async () => {
    h.server.reply({ frames: textFrames(['ok']) });
    const cp = { cachePoint: { type: 'default' as const } };
    const messages = [
      { role: 'user' as const, content: [{ text: 'one' }, cp] },
      { role: 'assistant' as const, content: [{ text: 'two' }, cp] },
      { role: 'user' as const, content: [{ text: 'three' }] },
    ];
    const model = h.model({ cache: 'auto' });
    const spec = { name: 't', description: 'd', inputSchema: { json: { type: 'object' } } };
    for await (const _ of model.stream({ messages, systemPrompt: 'sys', toolSpecs: [spec] })) void _;
    const body = h.server.requests.at(-1)?.body as Body;
    expect(points(body)).toBe(4);
    expect(JSON.stringify(body.messages[0])).not.toContain('cachePoint');
    expect(JSON.stringify(body.messages[1])).toContain('cachePoint');
  });

  it("rejects a cache setting that isn't 'auto' or 'off'", () => {
    expect(() => h.model({ cache: 'yes' as 'auto' })).toThrow(/cache must be 'auto' or 'off'/);
  });
});
