/**
 * What a provider fault table gives the shared trial of the provider campaign (provider-campaign.ts):
 * its fault kinds, how its loopback wire server sends each one exactly as the real service does, and
 * how it answers when no fault is injected. One small file per provider (provider-faults-*.ts).
 */
import type { Model } from '@skein/core';

/** A fault the server injects instead of a good answer; `retryable` faults must be absorbed. */
export interface Fault<R> {
  kind: string;
  retryable: boolean;
  /** The wait the server asked for, in ms. */
  retryAfterMs?: number;
  /** The provider's wire reply. */
  reply: R;
}

/** A good answer: a text plus a lookup of order `n` (a tool call), or the final answer. */
export type GoodAnswer = { lookup: number } | 'final';

/** What the trial answers to one request: the next fault, or a good answer. */
type Decision<R> = { fault: R } | { good: GoodAnswer };

/** A started loopback server and a real provider model aimed at it. */
interface ProviderWire {
  model: Model;
  close(): Promise<void>;
}

/** One provider's part of the campaign. */
export interface ProviderFaultTable<R> {
  /** The provider's name on the command line (`--provider`). */
  name: string;
  /** The fault kinds, in report order. */
  kinds: readonly string[];
  /** The toolUseId of the tool call in a stream that fails (it must never run nor reach the history). */
  cutToolUseId: string;
  /** The fault of `kind` (seeded details drawn from `random`). */
  fault(kind: string, random: () => number): Fault<R>;
  /** Starts the server; `serve` is called for each request with the number of tool results it carries. */
  start(serve: (toolResults: number) => Decision<R>): Promise<ProviderWire>;
}

/** Text of a stream that fails: it must never reach the history. */
export const FRAGMENT = ['FRAGMENT of a cut ', 'answer'];
/** Input chunks of the tool call in a stream that fails. */
export const CUT_INPUT = ['{"id":', '"cut"}'];
/** Input chunks of a tool call whose JSON never closes. */
export const MALFORMED_INPUT = ['{"id":', '"4'];
/** Text before each lookup. */
export const LOOKING = 'Looking.';
/** The final answer, in the chunks the server sends. */
export const FINAL = ['Both orders ', 'are 80 EUR.'];
/** The final answer as the agent returns it. */
export const FINAL_TEXT = FINAL.join('');
/** Input chunks of the lookup of order `n`. */
export const lookupInput = (n: number): string[] => ['{"id":', `"${n}"}`];
