import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, tool, type AgentTool } from '@skein/core';
import { GraphBuilder, type GraphState } from '@skein/graph';
import { OpenAIModel } from '@skein/model-openai';
import { chatChunks, OpenAITestServer, type RecordedRequest, type ScriptedReply } from '@skein/model-openai/testing';

// The support graph (triage -> billing | refund -> summary, conditional edges) whose agents all run on
// OpenAIModel through the real openai SDK against the loopback Chat Completions server. The server
// plays the model: it answers each request from what that request holds (the agent's system prompt,
// the customer's words, the tool results so far), as a model following the conversation would.

let server: OpenAITestServer;
beforeEach(async () => {
  server = await OpenAITestServer.start();
});
afterEach(async () => {
  await server.close();
});

interface ChatMessage {
  role: string;
  content: unknown;
  tool_call_id?: string;
}
const messagesOf = (r: RecordedRequest): ChatMessage[] => r.body['messages'] as ChatMessage[];
const systemOf = (r: RecordedRequest): string => String(messagesOf(r)[0]?.content ?? '');
const userText = (r: RecordedRequest): string =>
  messagesOf(r)
    .filter((m) => m.role === 'user')
    .map((m) => String(m.content))
    .join('\n');
const toolResults = (r: RecordedRequest): ChatMessage[] => messagesOf(r).filter((m) => m.role === 'tool');
const orderIn = (text: string): string => /order (\d+)/i.exec(text)?.[1] ?? 'unknown';

/** The model's side: one reply per request, from the request. */
function play(r: RecordedRequest): ScriptedReply {
  const system = systemOf(r);
  const done = toolResults(r).length;
  const order = orderIn(userText(r));
  if (system.startsWith('TRIAGE'))
    return {
      chunks: chatChunks({
        text: [/refund|money back/i.test(userText(r)) ? 'ROUTE: refund' : 'ROUTE: billing', ` (order ${order})`],
      }),
    };
  if (system.startsWith('BILLING')) {
    if (done === 0)
      return {
        chunks: chatChunks({
          toolCalls: [{ id: 'call_lookup', name: 'lookup_order', args: ['{"orderId":', `"${order}"}`] }],
        }),
      };
    if (done === 1)
      return {
        chunks: chatChunks({
          text: ['Charged twice; reversing.'],
          toolCalls: [{ id: 'call_reverse', name: 'reverse_duplicate_charge', args: [`{"invoiceId":"INV-${order}"}`] }],
        }),
        splitBytes: 3,
      };
    return { chunks: chatChunks({ text: [`The duplicate charge on order ${order} is reversed.`] }) };
  }
  if (system.startsWith('REFUND')) {
    if (done === 0)
      return {
        chunks: chatChunks({
          toolCalls: [{ id: 'call_lookup', name: 'lookup_order', args: [`{"orderId":"${order}"}`] }],
        }),
      };
    if (done === 1)
      return {
        chunks: chatChunks({
          toolCalls: [{ id: 'call_refund', name: 'issue_refund', args: [`{"orderId":"${order}",`, '"amountEur":30}'] }],
        }),
        splitBytes: 1,
      };
    return { chunks: chatChunks({ text: [`30 EUR of order ${order} are refunded.`] }) };
  }
  if (system.startsWith('SUMMARY')) {
    const notes = userText(r);
    const what = /reversed/.test(notes)
      ? 'We reversed the duplicate charge.'
      : /refunded/.test(notes)
        ? 'We refunded 30 EUR.'
        : 'We could not tell what happened.';
    return { chunks: chatChunks({ text: [`${what} `, 'Case closed.'] }) };
  }
  return {
    status: 400,
    body: {
      error: { message: `unexpected system prompt: ${system}`, type: 'invalid_request_error', param: null, code: null },
    },
  };
}

function supportGraph(calls: string[]): ReturnType<GraphBuilder['build']> {
  const model = new OpenAIModel({ modelId: 'qwen3', baseURL: server.url });
  const record = (name: string, input: unknown): void => void calls.push(`${name} ${JSON.stringify(input)}`);
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Looks up an order.',
    inputSchema: z.object({ orderId: z.string() }),
    callback: (input) => (
      record('lookup_order', input),
      { orderId: input.orderId, amountEur: 30, invoiceId: `INV-${input.orderId}`, timesCharged: 2 }
    ),
  });
  const reverse = tool({
    name: 'reverse_duplicate_charge',
    description: 'Reverses a duplicate charge.',
    inputSchema: z.object({ invoiceId: z.string() }),
    callback: (input) => (record('reverse_duplicate_charge', input), 'reversed'),
  });
  const refund = tool({
    name: 'issue_refund',
    description: 'Refunds an amount of an order.',
    inputSchema: z.object({ orderId: z.string(), amountEur: z.number() }),
    callback: (input) => (record('issue_refund', input), { refunded: input.amountEur }),
  });
  const agent = (name: string, systemPrompt: string, tools: AgentTool[]): Agent =>
    new Agent({ name, systemPrompt, model, tools, retryStrategy: null });
  const routedTo =
    (topic: string) =>
    (s: GraphState): boolean =>
      new RegExp(`^ROUTE: ${topic}`).test(s.results['triage']?.text ?? '');
  return new GraphBuilder()
    .setId('support')
    .addNode(agent('triage', 'TRIAGE: answer "ROUTE: billing" or "ROUTE: refund".', []), 'triage')
    .addNode(
      agent('billing', 'BILLING: look the order up, reverse a duplicate charge.', [lookupOrder, reverse]),
      'billing',
    )
    .addNode(agent('refund', 'REFUND: look the order up, refund it.', [lookupOrder, refund]), 'refund')
    .addNode(agent('summary', 'SUMMARY: tell the customer what was done.', []), 'summary')
    .addEdge('triage', 'billing', routedTo('billing'))
    .addEdge('triage', 'refund', routedTo('refund'))
    .addEdge('billing', 'summary')
    .addEdge('refund', 'summary')
    .setEntryPoint('triage')
    .build();
}

describe('the support graph on OpenAIModel against the loopback Chat Completions server', () => {
  it.each([
    {
      task: 'I was charged twice for order 42.',
      route: 'billing',
      calls: ['lookup_order {"orderId":"42"}', 'reverse_duplicate_charge {"invoiceId":"INV-42"}'],
      answer: 'We reversed the duplicate charge. Case closed.',
    },
    {
      task: 'I want my money back for order 7, the refund please.',
      route: 'refund',
      calls: ['lookup_order {"orderId":"7"}', 'issue_refund {"orderId":"7","amountEur":30}'],
      answer: 'We refunded 30 EUR. Case closed.',
    },
  ])('routes a $route request to $route, whose tool calls run, and answers', async ({ task, route, calls, answer }) => {
    server.enqueue(...Array.from({ length: 8 }, () => play));
    const made: string[] = [];
    const result = await supportGraph(made).invoke(task);
    expect(result.status).toBe('completed');
    expect(result.executionOrder).toEqual(['triage', route, 'summary']);
    expect(Object.keys(result.results).sort()).toEqual(['summary', 'triage', route].sort());
    expect(made).toEqual(calls);
    expect(result.results['summary']?.text).toBe(answer);
    // The specialist's tool results went back as role: 'tool' messages paired with the calls' ids.
    const last = server.requests.filter((r) => systemOf(r).startsWith(route.toUpperCase())).at(-1);
    expect(last && toolResults(last).map((m) => m.tool_call_id)).toEqual([
      'call_lookup',
      route === 'billing' ? 'call_reverse' : 'call_refund',
    ]);
    // 1 triage + 3 specialist turns + 1 summary, all over Chat Completions.
    expect(server.requests.map((r) => r.path)).toEqual(Array(5).fill('/v1/chat/completions'));
    expect(result.accumulatedUsage.totalTokens).toBe(5 * 15);
  });
});
