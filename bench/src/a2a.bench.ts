/**
 * Per-call overhead of A2A in skein over loopback, against a bare `@a2a-js/sdk` client-server pair
 * in the same run (the floor: the SDK's DefaultRequestHandler + InMemoryTaskStore behind its Express
 * JSON-RPC handler, an executor that answers at once, called with the SDK's client). Each row is one
 * message and its answer, a new task each time; both agents answer instantly, so what is measured is
 * the protocol stack. Rows: skein's server (an Agent on a ScriptedModel, tasks in memory, then in file
 * sessions), called with the SDK's client; skein's RemoteAgent calling the SDK's server and skein's
 * server. Blocking (SendMessage) and streaming (SendStreamingMessage). Variants run interleaved, one
 * batch each per round; medians of the rounds are reported, as wall time and as this process's CPU
 * time (client and server run in it; CPU time is steadier when the machine is busy).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentCard, type Part, SendMessageRequest, TaskState } from '@a2a-js/sdk';
import { ClientFactory, type Client } from '@a2a-js/sdk/client';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { RemoteAgent, serveA2A, type A2AServer } from '@skein/a2a';
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { FileSessionManager } from '@skein/session-file';
import express from 'express';
import { table } from './measure.js';

const CALLS = Number(process.env['BENCH_A2A_CALLS'] ?? 100);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const text = (value: string): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});

const echo: AgentExecutor = {
  async execute(ctx, bus) {
    const { taskId, contextId } = ctx;
    const now = (): string => new Date().toISOString();
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: now() },
        artifacts: [],
        history: [ctx.userMessage],
        metadata: undefined,
      }),
    );
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: 'answer',
          name: 'answer',
          description: '',
          parts: [text('ok')],
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: now() },
        metadata: undefined,
      }),
    );
  },
  async cancelTask() {},
};

async function sdkServer(): Promise<{ url: string; close: () => void }> {
  const app = express();
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card = AgentCard.fromJSON({
    name: 'sdk-echo',
    description: 'echo',
    version: '1.0.0',
    supportedInterfaces: [{ url: `${url}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'echo', description: 'echo', tags: [] }],
  });
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), echo);
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  return { url, close: () => (server.closeAllConnections(), server.close()) };
}

const agent = (sessionManager: FileSessionManager | Parameters<Parameters<typeof serveA2A>[0]['agent']>[0]): Agent =>
  new Agent({ name: 'echo', sessionManager, model: new ScriptedModel(['ok'], { loop: true, record: false }) });

const request = (): SendMessageRequest =>
  SendMessageRequest.fromJSON({
    message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }] },
  });

const sdkBlocking = (client: Client) => async () => void (await client.sendMessage(request()));
const sdkStreaming = (client: Client) => async () => {
  for await (const _ of client.sendMessageStream(request())) void _;
};

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-a2a-'));
  const sdk = await sdkServer();
  const inMemory: A2AServer = await serveA2A({ agent });
  const onFiles: A2AServer = await serveA2A({
    agent,
    sessions: (sessionId) => new FileSessionManager({ sessionId, storageDir: dir }),
  });
  const factory = new ClientFactory();
  const [toSdk, toSkein, toSkeinFiles] = await Promise.all(
    [sdk.url, inMemory.url, onFiles.url].map((u) => factory.createFromUrl(u)),
  );
  const remote = (url: string, streaming: boolean) => {
    const r = new RemoteAgent({ name: 'echo', url, streaming });
    return async () => void (await r.send('hi'));
  };
  const variants: [string, () => Promise<void>][] = [
    ['floor: SDK client -> SDK server, SendMessage', sdkBlocking(toSdk as Client)],
    ['SDK client -> skein server (tasks in memory), SendMessage', sdkBlocking(toSkein as Client)],
    ['SDK client -> skein server (tasks in file sessions), SendMessage', sdkBlocking(toSkeinFiles as Client)],
    ['skein RemoteAgent -> SDK server, SendMessage', remote(sdk.url, false)],
    ['skein RemoteAgent -> skein server (memory), SendMessage', remote(inMemory.url, false)],
    ['floor: SDK client -> SDK server, SendStreamingMessage', sdkStreaming(toSdk as Client)],
    ['SDK client -> skein server (memory), SendStreamingMessage', sdkStreaming(toSkein as Client)],
    ['skein RemoteAgent -> skein server (memory), streaming', remote(inMemory.url, true)],
  ];
  for (const [, fn] of variants) for (let i = 0; i < 30; i++) await fn(); // warm-up (cards fetched, JIT)
  const runs = variants.map((): number[] => []);
  const cpus = variants.map((): number[] => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, [, fn]] of variants.entries()) {
      const start = process.hrtime.bigint();
      const cpu = process.cpuUsage();
      for (let c = 0; c < CALLS; c++) await fn();
      const used = process.cpuUsage(cpu);
      runs[i]?.push(Number(process.hrtime.bigint() - start) / 1_000 / CALLS);
      cpus[i]?.push((used.user + used.system) / CALLS);
    }
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  const floorOf = (i: number): number => (i >= 5 ? 5 : 0);
  const rows: (string | number)[][] = [['variant', 'wall µs/call', 'x floor', 'CPU µs/call', 'x floor']];
  for (const [i, [name]] of variants.entries()) {
    const wall = median(runs[i] ?? []);
    const cpu = median(cpus[i] ?? []);
    const wallFloor = median(runs[floorOf(i)] ?? []);
    const cpuFloor = median(cpus[floorOf(i)] ?? []);
    rows.push([name, Math.round(wall), (wall / wallFloor).toFixed(2), Math.round(cpu), (cpu / cpuFloor).toFixed(2)]);
  }
  console.log(`${CALLS} calls per batch, ${ROUNDS} rounds, medians`);
  table(rows);
  await Promise.all([inMemory.close(), onFiles.close()]);
  sdk.close();
  await rm(dir, { recursive: true, force: true });
}

await main();
