/**
 * What the MCP door's tests serve: an echo agent, a slow agent (it streams slowly, to cancel), a refund
 * agent whose refunds over 50 EUR wait for approval, and a two-node graph (`desk`), on scripted models.
 */
import { z } from 'zod';
import { Agent, messageText, tool, type Message, type ModelRequest, type SessionManager } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import type { ServeMcpOptions } from '../index.js';

function lastUserText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user' && m.content.some((b) => 'text' in b)) return messageText(m);
  }
  return '';
}

/** Answers "You said: <last user text>", the text in `chunkSize` pieces `chunkDelayMs` apart. */
function echoModel(chunkDelayMs = 0): ScriptedModel {
  const turn = (request: ModelRequest): ScriptedTurn => ({
    text: `You said: ${lastUserText(request.messages)}`,
    chunkDelayMs,
  });
  return new ScriptedModel([turn], { loop: true, record: false, chunkSize: 4 });
}

/** Refunds the order named in the message (the tool needs approval over 50 EUR), then reports. */
function refundModel(): ScriptedModel {
  const turn = (request: ModelRequest): ScriptedTurn => {
    const last = request.messages[request.messages.length - 1];
    const result = last?.content.find((b) => 'toolResult' in b);
    if (result && 'toolResult' in result)
      return `Refund: ${result.toolResult.content.map((c) => ('text' in c ? c.text : JSON.stringify(c))).join(' ')}`;
    const amount = Number(/(\d+) EUR/.exec(lastUserText(request.messages))?.[1] ?? 10);
    return { text: 'Let me refund that.', toolUses: [{ name: 'issue_refund', input: { orderId: '42', amount } }] };
  };
  return new ScriptedModel([turn], { loop: true, record: false });
}

/** Refunds made, across the fresh agents of every call. */
export interface Ledger {
  refunds: string[];
}

/** The targets, on `sessions`; refunds go to `ledger`. */
export function serveTargets(
  sessions: (id: string) => SessionManager,
  ledger: Ledger = { refunds: [] },
): ServeMcpOptions {
  const issueRefund = tool({
    name: 'issue_refund',
    description: 'Refunds an order',
    inputSchema: z.object({ orderId: z.string(), amount: z.number() }),
    needsApproval: ({ amount }) => amount > 50,
    callback: ({ orderId, amount }) => {
      ledger.refunds.push(`${orderId}:${amount}`);
      return `refunded ${amount} EUR for order ${orderId}`;
    },
  });
  return {
    agents: {
      echo: ({ sessionManager }) => new Agent({ name: 'echo', model: echoModel(), sessionManager }),
      slow: ({ sessionManager }) => new Agent({ name: 'slow', model: echoModel(40), sessionManager }),
      refund: ({ sessionManager }) =>
        new Agent({ name: 'refund', model: refundModel(), tools: [issueRefund], sessionManager }),
    },
    graphs: {
      desk: ({ sessionManager }) =>
        new GraphBuilder()
          .addNode(new Agent({ name: 'triage', model: echoModel() }))
          .addNode(new Agent({ name: 'answer', model: echoModel() }))
          .addEdge('triage', 'answer')
          .setSessionManager(sessionManager)
          .build(),
    },
    sessions,
    onError: () => undefined,
  };
}
