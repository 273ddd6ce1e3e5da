/**
 * Turns orchestrator and agent stream events into the desk's progress lines. A tool call is printed
 * when it ended (`[billing] tool lookup_order {...}`, or `... failed: <why>`), never when it starts:
 * one that waits for a person's approval is printed as waiting (`[refund] waits for approval: ...`),
 * and as run only once it ran. An agent used as a tool reports its own calls under its caller's name
 * (`[desk/refund] tool lookup_order {...}`), never its text (the answer is its caller's).
 */
import type { AgentStreamEvent, MultiAgentStreamEvent } from '@skein/core';
import type { DeskProgress } from '../desk.js';

/** The calls each progress has seen start and not end, by `<who>/<toolUseId>`: what they were asked. */
const started = new WeakMap<DeskProgress, Map<string, string>>();

function callsOf(progress: DeskProgress): Map<string, string> {
  let calls = started.get(progress);
  if (!calls) started.set(progress, (calls = new Map()));
  return calls;
}

export function reportAgentEvent(
  event: AgentStreamEvent,
  progress: DeskProgress,
  who: string,
  streamText: boolean,
): void {
  if (event.type === 'toolStart')
    callsOf(progress).set(
      `${who}/${event.toolUse.toolUseId}`,
      `${event.toolUse.name} ${JSON.stringify(event.toolUse.input)}`,
    );
  else if (event.type === 'toolResult') {
    const key = `${who}/${event.toolResult.toolUseId}`;
    const call = callsOf(progress).get(key) ?? 'a tool';
    callsOf(progress).delete(key);
    if (event.toolResult.status === 'success') progress.line(`[${who}] tool ${call}`);
    else
      progress.line(
        `[${who}] tool ${call} failed: ${event.toolResult.content.map((c) => ('text' in c ? c.text : '')).join('')}`,
      );
  } else if (event.type === 'textDelta' && streamText) progress.text(event.data);
  // An agent used as a tool (the one-agent desk's refund agent): its tool calls, under its caller's name.
  else if (event.type === 'toolStream') reportAgentEvent(event.event, progress, `${who}/${event.toolUse.name}`, false);
}

/** A node that stopped to wait for a person: what it waits for (the calls it started and did not end). */
function waitingLine(progress: DeskProgress, nodeId: string): string {
  const calls = callsOf(progress);
  const waiting = [...calls].filter(([key]) => key.startsWith(`${nodeId}/`));
  for (const [key] of waiting) calls.delete(key);
  return `[${nodeId}] waits for approval${waiting.length > 0 ? `: ${waiting.map(([, call]) => call).join(', ')}` : ''}`;
}

export function reportOrchestratorEvent(
  event: MultiAgentStreamEvent,
  progress: DeskProgress,
  streamTextOf: (nodeId: string) => boolean,
): void {
  if (event.type === 'nodeStart') progress.line(`[${event.nodeId}] started`);
  else if (event.type === 'nodeStop' && event.result.status === 'interrupted')
    progress.line(waitingLine(progress, event.nodeId));
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
