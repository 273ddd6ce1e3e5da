/**
 * The way to one remote agent: its card (fetched once, checked), and an `@a2a-js/sdk` client on the
 * transport the card offers (JSON-RPC or HTTP+JSON, A2A 1.0 or 0.3). Every request carries the
 * caller's headers and the `traceparent` of the active span.
 */
import type { AgentCard } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { RemoteAgentError } from '../errors.js';
import { clientSdk } from '../wire/sdk.js';
import { currentTraceparent, loadTraceApi } from '../wire/trace-context.js';
import { cardProblems } from './card-check.js';
import { classify } from './faults.js';

/** Headers for every request (an `Authorization`, an API key), or a function giving them. */
export type HeadersOption = Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);

export interface ConnectionOptions {
  name: string;
  url: string;
  headers?: HeadersOption | undefined;
  fetch?: typeof fetch | undefined;
  /** Where the card is, relative to `url`. Default `.well-known/agent-card.json`. */
  cardPath?: string | undefined;
  /** Preferred transport; default the card's order. */
  transport?: 'JSONRPC' | 'HTTP+JSON' | undefined;
  /** Use streaming; default: when the card says the agent streams. */
  streaming?: boolean | undefined;
}

export interface Connected {
  client: Client;
  card: AgentCard;
  streaming: boolean;
}

export class Connection {
  readonly #o: ConnectionOptions;
  #connected: Promise<Connected> | undefined;

  constructor(options: ConnectionOptions) {
    this.#o = options;
  }

  get name(): string {
    return this.#o.name;
  }
  get url(): string {
    return this.#o.url;
  }

  /** `fetch` with the caller's headers and the active `traceparent` added. */
  readonly fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    const extra = typeof this.#o.headers === 'function' ? await this.#o.headers() : this.#o.headers;
    for (const [k, v] of Object.entries(extra ?? {})) headers.set(k, v);
    const tp = currentTraceparent();
    if (tp) headers.set('traceparent', tp);
    return (this.#o.fetch ?? fetch)(input, { ...init, headers });
  };

  #error(message: string, failure: 'bad_card' | 'unreachable', cause?: unknown): RemoteAgentError {
    return new RemoteAgentError(message, {
      agent: this.#o.name,
      url: this.#o.url,
      failure,
      cause,
      a2aCode: failure === 'bad_card' ? -32006 : undefined,
    });
  }

  async #card(): Promise<AgentCard> {
    const sdk = await clientSdk();
    const base = this.#o.url.endsWith('/') ? this.#o.url : `${this.#o.url}/`;
    const cardUrl = new URL(this.#o.cardPath ?? '.well-known/agent-card.json', base);
    let response: Response;
    try {
      response = await this.fetch(cardUrl, { headers: { 'A2A-Version': '1.0' } });
    } catch (error) {
      const fault = classify(error);
      const what = `cannot fetch its card at ${cardUrl}: ${fault.message}`;
      throw fault.transient ? new Error(what, { cause: error }) : this.#error(what, 'unreachable', error);
    }
    if (response.status >= 500 || response.status === 429)
      throw new Error(`HTTP error fetching the card: Status: ${response.status}`);
    if (!response.ok) throw this.#error(`its card at ${cardUrl} answered HTTP ${response.status}`, 'bad_card');
    let raw: unknown;
    try {
      raw = await response.json();
    } catch (error) {
      throw this.#error(`its card at ${cardUrl} is not JSON`, 'bad_card', error);
    }
    const legacy = sdk.legacy.isLegacyAgentCard(raw);
    const problems = cardProblems(raw, legacy);
    if (problems.length > 0)
      throw this.#error(`its card at ${cardUrl} cannot be used: ${problems.join('; ')}.`, 'bad_card');
    try {
      return legacy ? sdk.legacy.parseLegacyAgentCard(raw) : sdk.core.AgentCard.fromJSON(raw);
    } catch (error) {
      throw this.#error(`its card at ${cardUrl} cannot be read: ${(error as Error).message}`, 'bad_card', error);
    }
  }

  /** The card and a client (made once; a failure is not kept, so the next call tries again). */
  connect(): Promise<Connected> {
    this.#connected ??= (async () => {
      const [sdk] = await Promise.all([clientSdk(), loadTraceApi()]);
      const card = await this.#card();
      const { ClientFactory, JsonRpcTransportFactory, RestTransportFactory } = sdk.client;
      const options = { fetchImpl: this.fetch, legacyCompat: { enabled: true } };
      const factory = new ClientFactory({
        transports: [new JsonRpcTransportFactory(options), new RestTransportFactory(options)],
        ...(this.#o.transport ? { preferredTransports: [this.#o.transport] } : {}),
      });
      let client: Client;
      try {
        client = await factory.createFromAgentCard(card);
      } catch (error) {
        throw this.#error(`its card offers no transport skein speaks: ${(error as Error).message}`, 'bad_card', error);
      }
      return { client, card, streaming: this.#o.streaming ?? card.capabilities?.streaming === true };
    })();
    this.#connected.catch(() => {
      this.#connected = undefined;
    });
    return this.#connected;
  }
}
