import type { AgentHandle } from '../../agent/agent-handle.js';
import { ConfigurationError } from '../../errors/configuration-errors.js';
import { ModelError } from '../../errors/model-errors.js';
import { BeforeToolCallEvent } from '../../hooks/events.js';
import type { Model, ModelStreamEvent } from '../../model/model.js';
import type { JsonObject } from '../../types/json.js';
import type { Message, ToolResult } from '../../types/messages.js';
import { decodeBytes, encodeBytes } from '../session-codec.js';
import type { SessionRepository } from '../session-repository.js';
import { historyIndexId } from './history-ids.js';

/** The index entry of a fork that holds the original run's later model outputs and tool results. */
const RECORDING_ENTRY = 'recording';

/** What an original run did after a fork point: each member's model outputs in order, and every tool result by tool use id. */
export interface RecordingData {
  /** By member key (a graph node id, a swarm member's name): the assistant messages it produced, in order. */
  outputs: Record<string, Message[]>;
  /** By `toolUseId`: the result the original run got. */
  toolResults: Record<string, ToolResult>;
}

/** Which tools a replay runs again (default none: their recorded results stand in). */
export interface ReplayToolOptions {
  /** Tool names that run again, or `'all'`. Every other tool answers with its recorded result, or, without one, an error result saying it was not run. */
  allow?: readonly string[] | 'all';
}

/**
 * The original run's behaviour after a fork point, kept with the fork: replay a fork with the same
 * model outputs (`model(key)`) and without repeating side effects (`guard(agents)`: tools answer with
 * their recorded results unless allowed). Usage and timings are not recorded.
 * @example
 * const recording = await Recording.read(repository, 'what-if', 'desk-graph');
 * const graph = buildGraph(forkSessionManager, (nodeId) => recording.model(nodeId));
 * recording.guard(graph.nodes);   // graph: Map of node id -> node; swarm: swarm.nodes
 * await graph.invoke('');          // resumes at the fork point
 */
export class Recording {
  readonly data: RecordingData;

  constructor(data: RecordingData) {
    this.data = data;
  }

  /** The recording kept with fork `sessionId` of orchestrator `orchestratorId` (`undefined`: not a fork, or none kept). */
  static async read(
    repo: SessionRepository,
    sessionId: string,
    orchestratorId: string,
  ): Promise<Recording | undefined> {
    const entries = await repo.readNodeEntries(sessionId, historyIndexId(orchestratorId));
    const entry = entries[RECORDING_ENTRY];
    return entry ? new Recording(decodeBytes(entry) as unknown as RecordingData) : undefined;
  }

  /** The recording as entries of a fork's history index (`ForkSessionOptions.entries`), which `read` finds. */
  toEntries(): Record<string, JsonObject> {
    return { [RECORDING_ENTRY]: encodeBytes(this.data) as JsonObject };
  }

  /**
   * A model that answers with `key`'s recorded outputs, one per call, in order. A call past the last
   * one fails with a `ModelError` that says the replay went past the recording (use live models).
   */
  model(key: string): Model {
    const outputs = this.data.outputs[key] ?? [];
    let next = 0;
    return {
      modelId: `recording:${key}`,
      async *stream(): AsyncIterable<ModelStreamEvent> {
        const message = outputs[next++];
        if (!message) {
          throw new ModelError(
            `The replay of ${key} asked its model for answer ${next} but the original run recorded ${outputs.length} after the fork point; the run went another way (an edit?). Replay it with live models.`,
          );
        }
        yield* eventsOf(message);
      },
    };
  }

  /**
   * Guards the tools of `agents` (an iterable of agents, or of `[key, node]` pairs whose node is or has
   * an agent `target`): a tool whose name `allow` names runs; any other answers with the result the
   * original run recorded for that tool use, or, without one, an error result saying it was not run.
   * Approvals still ask as in the original. Returns a function that removes the guard.
   */
  guard(agents: Iterable<AgentHandle | readonly [string, unknown]>, options: ReplayToolOptions = {}): () => void {
    const allow = options.allow ?? [];
    if (allow !== 'all' && !Array.isArray(allow))
      throw new ConfigurationError(`guard(agents, { allow }) takes tool names or 'all' (got ${typeof allow}).`);
    const removers: (() => void)[] = [];
    for (const item of agents) {
      const agent = agentIn(item);
      if (!agent) continue;
      removers.push(
        agent.hooks.addCallback(BeforeToolCallEvent, (event) => {
          const name = event.toolUse.name;
          if (allow === 'all' || allow.includes(name)) return;
          const recorded = this.data.toolResults[event.toolUse.toolUseId];
          if (!recorded) {
            event.cancel = `Tool ${name} was not run again: this is a replay, and it runs only the tools it is allowed to (allow: ['${name}']).`;
            return;
          }
          const original = event.selectedTool;
          event.selectedTool = {
            name,
            spec: original?.spec ?? { name, description: name, inputSchema: { json: { type: 'object' } } },
            ...(original?.needsApproval !== undefined ? { needsApproval: original.needsApproval } : {}),
            invoke: async () => structuredClone(recorded),
          };
        }),
      );
    }
    return () => {
      for (const remove of removers) remove();
    };
  }
}

function agentIn(item: AgentHandle | readonly [string, unknown]): AgentHandle | undefined {
  const candidate = Array.isArray(item) ? (item as readonly [string, unknown])[1] : item;
  const target = (candidate as { target?: unknown }).target ?? candidate;
  const hooks = (target as { hooks?: { addCallback?: unknown } }).hooks;
  return typeof hooks?.addCallback === 'function' && 'messages' in (target as object)
    ? (target as AgentHandle)
    : undefined;
}

/** A recorded assistant message as the model events that produce it. */
function* eventsOf(message: Message): Generator<ModelStreamEvent> {
  yield { messageStart: { role: 'assistant' } };
  let index = 0;
  let usedTools = false;
  for (const block of message.content) {
    if ('text' in block) {
      yield { contentBlockDelta: { contentBlockIndex: index, delta: { text: block.text } } };
    } else if ('toolUse' in block) {
      usedTools = true;
      const { toolUseId, name, input } = block.toolUse;
      yield { contentBlockStart: { contentBlockIndex: index, start: { toolUse: { toolUseId, name } } } };
      yield { contentBlockDelta: { contentBlockIndex: index, delta: { toolUse: { input: JSON.stringify(input) } } } };
    } else if ('reasoningContent' in block) {
      const text = block.reasoningContent.reasoningText?.text ?? '';
      yield { contentBlockDelta: { contentBlockIndex: index, delta: { reasoningContent: { text } } } };
    } else continue;
    yield { contentBlockStop: { contentBlockIndex: index } };
    index++;
  }
  yield { messageStop: { stopReason: usedTools ? 'tool_use' : 'end_turn' } };
  yield { metadata: { usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 } } };
}

/** The recording of what followed a fork point: assistant messages by key, tool results by id. */
export function recordingOf(byKey: Iterable<readonly [string, readonly Message[]]>): RecordingData {
  const outputs: Record<string, Message[]> = {};
  const toolResults: Record<string, ToolResult> = {};
  for (const [key, messages] of byKey) {
    for (const m of messages) {
      if (m.role === 'assistant') (outputs[key] ??= []).push(m);
      else for (const b of m.content) if ('toolResult' in b) toolResults[b.toolResult.toolUseId] = b.toolResult;
    }
  }
  return { outputs, toolResults };
}
