/** Served agents and SDK clients the serving tests share. */
import { SendMessageRequest } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { Agent, tool, type SessionManager } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { z } from 'zod';
import { serveA2A, type A2AServer, type ServeA2AOptions } from '../index.js';

export const refunds: { orderId: string; amountEur: number }[] = [];

/** A refund tool that needs approval above 50 EUR. */
const issueRefund = tool({
  name: 'issue_refund',
  description: 'Refunds an order.',
  inputSchema: z.object({ orderId: z.string(), amountEur: z.number() }),
  needsApproval: ({ amountEur }) => amountEur > 50,
  callback: ({ orderId, amountEur }) => {
    refunds.push({ orderId, amountEur });
    return `refunded ${amountEur} EUR for order ${orderId}`;
  },
});

/** A refund agent: asks to refund 80 EUR, then answers from the tool result (a model that reads the conversation, as a rebuilt agent needs). */
export function refundAgent(sessionManager: SessionManager): Agent {
  return new Agent({
    name: 'refund',
    description: 'Refunds orders.',
    tools: [issueRefund],
    sessionManager,
    model: new ScriptedModel(
      [
        (request) => {
          const last = request.messages.at(-1);
          const result = last?.content.find((b) => 'toolResult' in b);
          if (!result || !('toolResult' in result))
            return {
              toolUses: [{ name: 'issue_refund', input: { orderId: '7', amountEur: 80 }, toolUseId: 'tu-refund' }],
            };
          return result.toolResult.status === 'success'
            ? 'Refunded 80 EUR for order 7.'
            : 'The refund was not approved.';
        },
      ],
      { loop: true },
    ),
  });
}

/** An agent that takes `delayMs` before it answers `text`. */
export function slowAgent(sessionManager: SessionManager, delayMs: number, text = 'done'): Agent {
  return new Agent({ name: 'slow', sessionManager, model: new ScriptedModel([{ text, delayMs }]) });
}

const servers: A2AServer[] = [];

export async function serve(options: ServeA2AOptions): Promise<A2AServer> {
  const server = await serveA2A(options);
  servers.push(server);
  return server;
}

export async function closeServers(): Promise<void> {
  for (const s of servers.splice(0)) await s.close();
}

/** A SendMessage request with one text part (and more message fields). */
export function send(
  text: string,
  message: Record<string, unknown> = {},
  configuration?: Record<string, unknown>,
): SendMessageRequest {
  return SendMessageRequest.fromJSON({
    message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...message },
    ...(configuration ? { configuration } : {}),
  });
}

/** An @a2a-js/sdk 1.3 client preferring `transport`; with `bearer`, every call sends `Authorization: Bearer <bearer>`. */
export async function clientFor(
  url: string,
  transport: 'JSONRPC' | 'HTTP+JSON' = 'JSONRPC',
  bearer?: string,
): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (bearer !== undefined) headers.set('authorization', `Bearer ${bearer}`);
    return fetch(input, { ...init, headers });
  };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      preferredTransports: [transport],
      ...(bearer === undefined
        ? {}
        : { transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })] }),
    }),
  );
  return factory.createFromUrl(url);
}
