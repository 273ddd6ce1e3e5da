import type { Attributes } from '@opentelemetry/api';
import type { Agent } from '@skein/core';
import type { Telemetry } from './options.js';

/** What every span and metric of one instrumented agent needs. */
export interface AgentScope {
  readonly agent: Agent;
  readonly t: Telemetry;
  /** The attributes every metric of the agent's invocations and model calls carries (provider, model). */
  readonly metricBase: Attributes;
}

/** Seconds since `from` (a `performance.now()` value). */
export const seconds = (from: number): number => (performance.now() - from) / 1000;
