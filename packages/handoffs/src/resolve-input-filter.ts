import type { Handoff, HandoffInputFilter } from '@skein/core';
import { nestHandoffHistory, type HandoffHistoryMapper } from './filters/nest-handoff-history.js';

/** Run-wide handoff settings of an orchestrator (e.g. a Swarm's options). */
export interface HandoffRunSettings {
  /** Applied to handoffs that have no `inputFilter` of their own. */
  inputFilter?: HandoffInputFilter | undefined;
  /** Nest the history on handoffs without any input filter (a handoff's own `nestHandoffHistory` wins). Default false. */
  nestHandoffHistory?: boolean | undefined;
  /** The mapper nested history uses. Default: one assistant summary message. */
  handoffHistoryMapper?: HandoffHistoryMapper | undefined;
}

/**
 * The filter that shapes what a handoff passes on: the handoff's own `inputFilter`, else the run's,
 * else nested history when the handoff (or, failing that, the run) asks for it, else none
 * (`undefined`: the next agent receives the conversation as it is).
 */
export function resolveInputFilter(
  handoff: Handoff,
  settings: HandoffRunSettings = {},
): HandoffInputFilter | undefined {
  if (handoff.inputFilter) return handoff.inputFilter;
  if (settings.inputFilter) return settings.inputFilter;
  const nest = handoff.nestHandoffHistory ?? settings.nestHandoffHistory ?? false;
  if (!nest) return undefined;
  const mapper = settings.handoffHistoryMapper;
  return mapper ? (data) => nestHandoffHistory(data, { historyMapper: mapper }) : nestHandoffHistory;
}
