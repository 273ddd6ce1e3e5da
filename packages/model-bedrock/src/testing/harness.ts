import type { ModelRequest, ModelStreamEvent } from '@skein/core';
import { BedrockModel } from '../bedrock-model.js';
import type { BedrockModelOptions } from '../bedrock-options.js';
import { BedrockWireServer } from './bedrock-wire-server.js';

/** Options of a model pointed at a test server (the client is always built from `clientConfig`). */
type HarnessModelOptions = Omit<BedrockModelOptions, 'client' | 'clientConfig' | 'region'>;

/** A loopback server plus models pointed at it; `close()` destroys both. */
export interface Harness {
  server: BedrockWireServer;
  /** A BedrockModel whose client BedrockModel builds itself, aimed at the server with dummy credentials. */
  model(options?: HarnessModelOptions): BedrockModel;
  close(): Promise<void>;
}

/** Starts a loopback Bedrock server and returns a factory of models that talk to it. */
export async function startHarness(): Promise<Harness> {
  const server = await new BedrockWireServer().start();
  const models: BedrockModel[] = [];
  return {
    server,
    model(options = {}) {
      const model = new BedrockModel({
        ...options,
        region: 'us-east-1',
        clientConfig: {
          endpoint: server.endpoint,
          credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
        },
      });
      models.push(model);
      return model;
    },
    async close() {
      for (const model of models) model.client.destroy();
      await server.close();
    },
  };
}

/** Every event of one call, in order. */
export async function collect(
  model: { stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> },
  request: ModelRequest,
): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of model.stream(request)) events.push(event);
  return events;
}

/** Events of one call until it throws; returns both (the error is `undefined` when none was thrown). */
export async function collectUntilError(
  model: { stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> },
  request: ModelRequest,
): Promise<{ events: ModelStreamEvent[]; error: unknown }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const event of model.stream(request)) events.push(event);
  } catch (error) {
    return { events, error };
  }
  return { events, error: undefined };
}

/** A one-message user request. */
export function ask(text: string, extra: Omit<ModelRequest, 'messages'> = {}): ModelRequest {
  return { messages: [{ role: 'user', content: [{ text }] }], ...extra };
}
