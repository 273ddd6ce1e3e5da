/**
 * Records the tool calls of every agent a target runs, through each agent's listeners (`toolStart`,
 * `toolResult`): nested agents behind `asTool()` included, which an orchestrator's own events do not
 * reach. A call paused for an answer and started again on resume is one call.
 */
import type { Agent, AgentStreamEvent, JsonValue, ToolResult } from '@skein/core';
import type { ToolCallRecord } from './case-run.js';

type ToolStart = Extract<AgentStreamEvent, { type: 'toolStart' }>;
type ToolEnd = Extract<AgentStreamEvent, { type: 'toolResult' }>;

export interface ToolObserver {
  /** Every call so far, in the order they started. */
  readonly calls: ToolCallRecord[];
  /** The name of the agent behind a call's tool (an `asTool()` tool), or `undefined`. */
  agentBehind(call: ToolCallRecord): string | undefined;
  /** Removes the listeners. */
  detach(): void;
}

const OUTPUT_CHARS = 300;

function outputText(result: ToolResult): string {
  const text = result.content.map((c) => ('text' in c ? c.text : 'json' in c ? JSON.stringify(c.json) : '')).join('');
  return text.length > OUTPUT_CHARS ? `${text.slice(0, OUTPUT_CHARS - 3)}...` : text;
}

export function observeTools(agents: readonly Agent[]): ToolObserver {
  const calls: ToolCallRecord[] = [];
  const agentTools = new Map<string, string>(); // "<caller>\n<tool>" -> the agent behind the tool
  const detachers: (() => void)[] = [];
  for (const agent of agents) {
    for (const tool of agent.tools) if (tool.agent) agentTools.set(`${agent.name}\n${tool.name}`, tool.agent.name);
    // Calls of this agent still waiting for their result, by tool use id.
    const open = new Map<string, ToolCallRecord>();
    const onStart = (e: ToolStart): void => {
      if (open.has(e.toolUse.toolUseId)) return; // resumed after an answer: the same call
      const call: ToolCallRecord = {
        agent: agent.name,
        name: e.toolUse.name,
        input: e.toolUse.input as JsonValue,
        status: 'pending',
      };
      open.set(e.toolUse.toolUseId, call);
      calls.push(call);
    };
    const onResult = (e: ToolEnd): void => {
      const call = open.get(e.toolResult.toolUseId);
      if (!call) return;
      open.delete(e.toolResult.toolUseId);
      call.status = e.toolResult.status;
      call.output = outputText(e.toolResult);
    };
    agent.on('toolStart', onStart).on('toolResult', onResult);
    detachers.push(() => agent.off('toolStart', onStart).off('toolResult', onResult));
  }
  return {
    calls,
    agentBehind: (call) => agentTools.get(`${call.agent}\n${call.name}`),
    detach: () => detachers.forEach((d) => d()),
  };
}
