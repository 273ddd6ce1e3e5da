/**
 * A server in its own process, for the tests that kill and restart it: a refund agent and a two-node
 * graph on the file store in `SKEIN_STORE`, or on the PostgreSQL database `SKEIN_POSTGRES` names (a
 * manager per request on the connection string: they share the process's pool); every tool call and
 * model call is appended to `SKEIN_LEDGER` (a line each), so a test counts what ran across processes.
 * Prints `{"url": ...}`.
 */
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { Agent, tool, type ModelRequest } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { FileSessionManager } from '@skein/session-file';
import { PostgresSessionManager } from '@skein/session-postgres';
import { createServer, serve } from '../index.js';

const store = process.env['SKEIN_STORE'] as string;
const postgres = process.env['SKEIN_POSTGRES'];
const ledger = process.env['SKEIN_LEDGER'] as string;
const answerDelayMs = Number(process.env['SKEIN_ANSWER_DELAY_MS'] ?? 1500);
const note = (line: string): void => appendFileSync(ledger, `${line}\n`);

function counted(name: string, turn: (request: ModelRequest) => ScriptedTurn): ScriptedModel {
  return new ScriptedModel(
    [
      (request) => {
        note(`model:${name}`);
        return turn(request);
      },
    ],
    { loop: true, record: false },
  );
}

const refundTool = tool({
  name: 'issue_refund',
  description: 'Refunds an order',
  inputSchema: z.object({ orderId: z.string(), amount: z.number() }),
  callback: ({ orderId, amount }) => {
    note(`tool:issue_refund:${orderId}:${amount}`);
    return `refunded ${amount} EUR for order ${orderId}`;
  },
});

const refundModel = (): ScriptedModel =>
  counted('refund', (request) => {
    const last = request.messages[request.messages.length - 1];
    if (last?.content.some((b) => 'toolResult' in b))
      return { text: 'Your refund is on its way.', delayMs: answerDelayMs };
    return { text: 'Refunding.', toolUses: [{ name: 'issue_refund', input: { orderId: '42', amount: 20 } }] };
  });

const app = createServer({
  agents: {
    refund: ({ sessionManager }) =>
      new Agent({ name: 'refund', model: refundModel(), tools: [refundTool], sessionManager }),
  },
  graphs: {
    chain: ({ sessionManager }) =>
      new GraphBuilder()
        .addNode(new Agent({ name: 'first', model: counted('first', () => ({ text: 'first done' })) }))
        .addNode(
          new Agent({
            name: 'second',
            model: counted('second', () => ({ text: 'second done', delayMs: answerDelayMs })),
          }),
        )
        .addEdge('first', 'second')
        .setSessionManager(sessionManager)
        .build(),
  },
  sessions: postgres
    ? (id) => new PostgresSessionManager({ sessionId: id, connectionString: postgres })
    : (id) => new FileSessionManager({ sessionId: id, storageDir: store }),
  limits: { stopGraceMs: Number(process.env['SKEIN_GRACE_MS'] ?? 100) },
});

const running = await serve(app, { port: 0, log: (line) => process.stderr.write(`${line}\n`) });
process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
