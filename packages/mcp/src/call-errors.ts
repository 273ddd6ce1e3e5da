import { errorMessage } from '@skein/core';
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { STREAM_ENDED_CODE } from './answer-watch.js';

/** What is known when a tool call failed. */
export interface CallFailure {
  /** The tool's name as the model knows it. */
  tool: string;
  /** `MCP server "name" (...)`. */
  server: string;
  timeoutMs: number;
  /** True when the agent's signal was aborted. */
  aborted: boolean;
  /** True when the connection to the server is gone. */
  lost: boolean;
  /** Whether the next call will start a new connection. */
  reconnects: boolean;
  /** The server's last stderr lines, if any. */
  stderr: string;
}

/** True when the call failed in the transport (not a timeout, a cancellation or an answer of the server). */
export function isTransportFailure(error: unknown, aborted: boolean): boolean {
  if (aborted || error instanceof ProtocolError) return false;
  return !(error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout);
}

/** One readable sentence (or three) for the model about why a call to an MCP tool failed. */
export function describeCallError(error: unknown, f: CallFailure): string {
  if (f.aborted) return `Tool ${f.tool} was cancelled before the ${f.server} answered.`;
  if (
    f.lost ||
    (error instanceof SdkError &&
      (error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected))
  ) {
    const said = f.stderr ? ` Its stderr ended with: "${f.stderr}".` : '';
    const next = f.reconnects
      ? ' The next call will start a new connection; the call may or may not have taken effect.'
      : '';
    return `The ${f.server} went away while tool ${f.tool} was running.${said}${next}`;
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return `Tool ${f.tool} did not answer within ${f.timeoutMs} ms (${f.server}); the call was cancelled. Try again later or with a smaller request.`;
  }
  if (error instanceof ProtocolError && error.code === STREAM_ENDED_CODE) {
    return `The ${f.server} dropped the connection while tool ${f.tool} was running, before answering; the call may or may not have taken effect.`;
  }
  if (error instanceof ProtocolError)
    return `The ${f.server} refused the call to ${f.tool}: ${error.message} (JSON-RPC error ${error.code}).`;
  const message = errorMessage(error);
  return `Calling tool ${f.tool} on the ${f.server} failed: ${message}`;
}
