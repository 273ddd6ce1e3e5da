/**
 * What went wrong in a call to a remote agent, as a pure classification of what the SDK client
 * threw: transient faults (refused or reset connections, HTTP 5xx and 429, a stream cut before the
 * task's end) are retried like model calls; protocol errors (JSON-RPC codes, HTTP+JSON errors) are not.
 */
import { errorMessage } from '@skein/core';
import type { RemoteFailure } from '../errors.js';

export interface Fault {
  transient: boolean;
  failure: RemoteFailure;
  a2aCode?: number;
  message: string;
}

/** A stream that ended before the task reached a final or waiting state. */
export class StreamCutError extends Error {
  constructor(what: string) {
    super(`${what} ended before the task finished or asked for input`);
    this.name = 'StreamCutError';
  }
}

const NETWORK =
  /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|UND_ERR|socket hang up|other side closed|terminated|fetch failed/i;

function causeChain(error: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e: unknown = error; e && out.length < 6; e = (e as { cause?: unknown }).cause) out.push(e);
  return out;
}

function text(e: unknown): string {
  if (e instanceof Error) return `${e.message} ${String((e as { code?: unknown }).code ?? '')}`;
  return String(e);
}

/** Classifies `error`, thrown by a call to a remote agent. */
export function classify(error: unknown): Fault {
  const chain = causeChain(error);
  const message = errorMessage(error);
  for (const e of chain) {
    const rpc = (e as { envelopeCode?: unknown }).envelopeCode;
    if (typeof rpc === 'number') {
      return {
        transient: false,
        failure: 'protocol_error',
        a2aCode: rpc,
        message: `${(e as Error).message} (JSON-RPC error ${rpc})`,
      };
    }
    const status = (e as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && (e as { transport?: unknown }).transport === 'rest') {
      const transient = status >= 500 || status === 429;
      return {
        transient,
        failure: transient ? 'unreachable' : 'protocol_error',
        message: `${(e as Error).message} (HTTP ${status})`,
      };
    }
  }
  if (chain.some((e) => e instanceof StreamCutError)) return { transient: true, failure: 'unreachable', message };
  const http = /Status: (\d{3})|: (\d{3}) /.exec(message);
  const code = http ? Number(http[1] ?? http[2]) : undefined;
  if (code !== undefined && (code >= 500 || code === 429)) return { transient: true, failure: 'unreachable', message };
  if (code === 401 || code === 403) return { transient: false, failure: 'protocol_error', message };
  if (chain.some((e) => NETWORK.test(text(e))))
    return {
      transient: true,
      failure: 'unreachable',
      message: `${message}${chain.length > 1 ? `: ${text(chain.at(-1))}`.trimEnd() : ''}`,
    };
  return { transient: false, failure: 'bad_response', message };
}
