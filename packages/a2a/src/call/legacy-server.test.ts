/**
 * Calling a peer still on A2A 0.3 (what Strands and ADK serve): an agent served by the real
 * `@a2a-js/sdk` 0.3.14 server classes (installed as `a2a-sdk-v03`), called by skein's RemoteAgent.
 */
import type { AddressInfo } from 'node:net';
import { Agent, type ToolResult } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import type { AgentCard, Message, TaskStatusUpdateEvent } from 'a2a-sdk-v03';
import { DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor } from 'a2a-sdk-v03/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from 'a2a-sdk-v03/server/express';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteAgent } from '../index.js';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

/** A 0.3 agent: asks for a currency, then answers with it. */
async function legacyAgent(streaming: boolean): Promise<{ url: string; received: string[] }> {
  const received: string[] = [];
  const app = express();
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  closers.push(() => (server.closeAllConnections(), server.close()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card: AgentCard = {
    name: 'payments-03',
    description: 'A payments agent on A2A 0.3.',
    protocolVersion: '0.3.0',
    version: '1.0.0',
    url: `${url}/a2a/jsonrpc`,
    preferredTransport: 'JSONRPC',
    capabilities: { streaming },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'pay', name: 'pay', description: 'Pays.', tags: [] }],
  };
  const say = (text: string, taskId: string, contextId: string): Message => ({
    kind: 'message',
    messageId: crypto.randomUUID(),
    role: 'agent',
    parts: [{ kind: 'text', text }],
    taskId,
    contextId,
  });
  const executor: AgentExecutor = {
    async execute(ctx, bus) {
      const { taskId, contextId } = ctx;
      const said = ctx.userMessage.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
      received.push(said);
      if (!ctx.task)
        bus.publish({
          kind: 'task',
          id: taskId,
          contextId,
          status: { state: 'submitted' },
          history: [ctx.userMessage],
        });
      const status = (state: TaskStatusUpdateEvent['status']['state'], text?: string): void =>
        bus.publish({
          kind: 'status-update',
          taskId,
          contextId,
          status: { state, ...(text ? { message: say(text, taskId, contextId) } : {}) },
          final: state !== 'working',
        });
      if (!ctx.task) return status('input-required', 'Which currency?');
      bus.publish({
        kind: 'artifact-update',
        taskId,
        contextId,
        artifact: { artifactId: 'a', parts: [{ kind: 'text', text: `paid in ${said}` }] },
      });
      status('completed');
    },
    async cancelTask() {},
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  return { url, received };
}

describe('a remote agent on A2A 0.3 (@a2a-js/sdk 0.3.14 server)', () => {
  for (const streaming of [true, false]) {
    it(`is called over the 0.3 protocol, its question an interrupt, its answer the tool result (streaming: ${streaming})`, async () => {
      const peer = await legacyAgent(streaming);
      const remote = new RemoteAgent({ name: 'payments', url: peer.url, pollIntervalMs: 20 });
      const card = await remote.card();
      expect(card.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion}`)).toEqual([
        'JSONRPC 0.3.0',
      ]);
      const tool = remote.asTool();
      const agent = new Agent({
        name: 'caller',
        tools: [tool],
        model: new ScriptedModel(
          [
            (request) => {
              const result = request.messages.at(-1)?.content.find((b) => 'toolResult' in b);
              if (!result || !('toolResult' in result))
                return { toolUses: [{ name: 'payments', input: { input: 'pay 10' }, toolUseId: 't1' }] };
              const r: ToolResult = result.toolResult;
              return `${r.status}: ${r.content.map((c) => ('text' in c ? c.text : '')).join('')}`;
            },
          ],
          { loop: true },
        ),
      });
      const paused = await agent.invoke('go');
      expect(paused.interrupts[0]).toMatchObject({
        id: 't1#input',
        name: 'input',
        reason: { question: 'Which currency?' },
      });
      const done = await agent.invoke([{ interruptResponse: { interruptId: 't1#input', response: 'EUR' } }]);
      expect(String(done)).toBe('success: paid in EUR');
      expect(peer.received).toEqual(['pay 10', 'EUR']);
    });
  }
});
