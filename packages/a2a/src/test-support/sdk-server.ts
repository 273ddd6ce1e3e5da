/**
 * An A2A agent served by `@a2a-js/sdk`'s own server classes (DefaultRequestHandler, InMemoryTaskStore,
 * the Express JSON-RPC and REST handlers): code nobody here wrote, for skein's client to call.
 */
import type { AddressInfo } from 'node:net';
import { AgentCard, type Message, type Part, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';

const text = (value: string): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});
const agentMessage = (value: string, taskId: string, contextId: string): Message => ({
  messageId: crypto.randomUUID(),
  contextId,
  taskId,
  role: 2,
  parts: [text(value)],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});
const userText = (m: Message): string =>
  m.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');

/** How the scripted SDK agent behaves: echo, ask once then echo the answer, fail, or echo slowly. */
export type SdkBehavior = 'echo' | 'ask' | 'fail' | 'slow';

export interface SdkAgent {
  url: string;
  /** Messages received, in order. */
  received: string[];
  /** SendMessage / SendStreamingMessage requests, GetTask / ListTasks / resubscribe requests seen. */
  calls: string[];
  /** Headers of the last request. */
  lastHeaders: Record<string, string | string[] | undefined>;
  close(): Promise<void>;
}

class Executor implements AgentExecutor {
  readonly canceled = new Set<string>();
  constructor(
    private readonly behavior: SdkBehavior,
    private readonly received: string[],
    private readonly slowMs: number,
  ) {}

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = ctx;
    const said = userText(ctx.userMessage);
    this.received.push(said);
    const history = [...(ctx.task?.history ?? [])];
    if (!ctx.task) history.push(ctx.userMessage);
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
        artifacts: [],
        history,
        metadata: undefined,
      }),
    );
    const status = (state: TaskState, message?: string): void =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state,
            message: message === undefined ? undefined : agentMessage(message, taskId, contextId),
            timestamp: new Date().toISOString(),
          },
          metadata: undefined,
        }),
      );
    status(TaskState.TASK_STATE_WORKING);
    if (this.behavior === 'fail') return status(TaskState.TASK_STATE_FAILED, 'the ledger is closed');
    if (this.behavior === 'ask' && !ctx.task) return status(TaskState.TASK_STATE_INPUT_REQUIRED, 'Which currency?');
    if (this.behavior === 'slow') {
      await new Promise((r) => setTimeout(r, this.slowMs));
      if (this.canceled.has(taskId)) return;
    }
    const answer = this.behavior === 'ask' ? `paid in ${said}` : `echo: ${said}`;
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: 'a1',
          name: 'answer',
          description: '',
          parts: [text(answer)],
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    status(TaskState.TASK_STATE_COMPLETED);
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    this.canceled.add(taskId);
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: '',
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
  }
}

/** Starts the scripted SDK agent on 127.0.0.1 (a free port). */
export async function startSdkAgent(
  behavior: SdkBehavior,
  options: { streaming?: boolean; slowMs?: number; card?: (card: Record<string, unknown>) => unknown } = {},
): Promise<SdkAgent> {
  const received: string[] = [];
  const calls: string[] = [];
  const app = express();
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card = AgentCard.fromJSON({
    name: `sdk-${behavior}`,
    description: 'An agent served by @a2a-js/sdk.',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${url}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${url}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: options.streaming ?? true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: behavior, name: behavior, description: behavior, tags: [] }],
  });
  const handler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    new Executor(behavior, received, options.slowMs ?? 300),
  );
  const state = { lastHeaders: {} as SdkAgent['lastHeaders'] };
  app.use((req, _res, next) => {
    state.lastHeaders = req.headers;
    next();
  });
  app.use(express.json(), (req, _res, next) => {
    const method = (req.body as { method?: unknown } | undefined)?.method;
    calls.push(typeof method === 'string' ? method : `${req.method} ${req.path}`);
    next();
  });
  const raw = AgentCard.toJSON(card) as Record<string, unknown>;
  if (options.card) app.get('/.well-known/agent-card.json', (_req, res) => void res.json(options.card?.(raw)));
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  app.use('/a2a/rest', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  return {
    url,
    received,
    calls,
    get lastHeaders() {
      return state.lastHeaders;
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
