import {
  isJSONRPCRequest,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';

type SendOptions = NonNullable<Parameters<StreamableHTTPClientTransport['send']>[1]>;

/** JSON-RPC error code of the answer skein makes up when a tool call's response stream ended empty. */
export const STREAM_ENDED_CODE = -32099;

/**
 * The streamable HTTP transport, watched: when the response stream of a `tools/call` ends (the
 * server dropped the connection, or died) before the answer came, the pending call gets an error
 * answer at once instead of waiting for its timeout. Everything else passes straight through.
 */
export class AnswerWatchingTransport implements Transport {
  readonly hasPerRequestStream = true;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;
  readonly #inner: StreamableHTTPClientTransport;
  readonly #waiting = new Set<RequestId>();

  constructor(inner: StreamableHTTPClientTransport) {
    this.#inner = inner;
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message: JSONRPCMessage) => {
      if ('id' in message && ('result' in message || 'error' in message)) this.#waiting.delete(message.id as RequestId);
      this.onmessage?.(message);
    };
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion(version);
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  close(): Promise<void> {
    this.#waiting.clear();
    return this.#inner.close();
  }

  /** Asks the server to end the session (HTTP DELETE); servers may refuse. */
  terminateSession(): Promise<void> {
    return this.#inner.terminateSession();
  }

  send(message: JSONRPCMessage, options: SendOptions = {}): Promise<void> {
    if (!isJSONRPCRequest(message) || message.method !== 'tools/call') return this.#inner.send(message, options);
    const id = message.id;
    this.#waiting.add(id);
    const ended = options.onRequestStreamEnd;
    const watched: SendOptions = {
      ...options,
      onRequestStreamEnd: () => {
        ended?.();
        setImmediate(() => {
          if (!this.#waiting.delete(id)) return;
          const message = 'the server closed the response stream before answering';
          this.onmessage?.({ jsonrpc: '2.0', id, error: { code: STREAM_ENDED_CODE, message } });
        });
      },
    };
    return this.#inner.send(message, watched).catch((error: unknown) => {
      this.#waiting.delete(id);
      throw error;
    });
  }
}
