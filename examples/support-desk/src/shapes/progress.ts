/** Turns orchestrator and agent stream events into the desk's progress lines. */
import type { AgentStreamEvent, MultiAgentStreamEvent } from '@skein/core';
import type { DeskProgress } from '../desk.js';

export function reportAgentEvent(
  event: AgentStreamEvent,
  progress: DeskProgress,
  who: string,
  streamText: boolean,
): void {
  if (event.type === 'toolStart')
    progress.line(`[${who}] tool ${event.toolUse.name} ${JSON.stringify(event.toolUse.input)}`);
  else if (event.type === 'toolResult' && event.toolResult.status === 'error')
    progress.line(`[${who}] tool failed: ${event.toolResult.content.map((c) => ('text' in c ? c.text : '')).join('')}`);
  else if (event.type === 'textDelta' && streamText) progress.text(event.data);
}

export function reportOrchestratorEvent(
  event: MultiAgentStreamEvent,
  progress: DeskProgress,
  streamTextOf: (nodeId: string) => boolean,
): void {
  if (event.type === 'nodeStart') progress.line(`[${event.nodeId}] started`);
  else if (event.type === 'nodeStop') progress.line(`[${event.nodeId}] ${event.result.status}`);
  else if (event.type === 'transition' && event.transition.kind === 'handoff')
    progress.line(`[handoff] ${event.transition.from} -> ${event.transition.to ?? ''}`);
  else if (event.type === 'nodeStream' && 'type' in event.event) {
    const inner = event.event;
    if (
      inner.type === 'nodeStart' ||
      inner.type === 'nodeStop' ||
      inner.type === 'transition' ||
      inner.type === 'nodeStream'
    )
      reportOrchestratorEvent(inner, progress, streamTextOf);
    else reportAgentEvent(inner, progress, event.nodeId, streamTextOf(event.nodeId));
  }
}
