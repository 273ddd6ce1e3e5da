/** The durable-chain workload's two graphs: a chain of NODES nodes, one model call each, in skein and in LangGraph. */
import type { BaseMessage } from '@langchain/core/messages';
import { HumanMessage } from '@langchain/core/messages';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { Agent, RepositorySessionManager, type SessionRepository } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';

/** Nodes in the chain. */
export const NODES = 30;
const TEXT = 'this node did its part of the work';

/** skein: a chain of NODES agents; ms per node of one run on `repository` (or none). */
export async function skeinRun(repository: SessionRepository | undefined, id: string): Promise<number> {
  const b = new GraphBuilder().setId(id);
  if (repository) b.setSessionManager(new RepositorySessionManager({ sessionId: id, repository }));
  for (let i = 0; i < NODES; i++) {
    const model = new ScriptedModel([{ text: TEXT }], { loop: true, record: false });
    b.addNode(new Agent({ name: `n${i}`, model, retryStrategy: null }));
    if (i > 0) b.addEdge(`n${i - 1}`, `n${i}`);
  }
  const start = performance.now();
  const result = await b.build().invoke('Route this request.');
  if (result.status !== 'completed') throw new Error(`skein run ${id} ended ${result.status}`);
  return (performance.now() - start) / NODES;
}

/** What the LangGraph builder is used as here (its types follow each node name added). */
interface LangGraphBuilder {
  addNode(name: string, run: (state: { messages: BaseMessage[] }) => Promise<{ messages: BaseMessage[] }>): this;
  addEdge(from: string, to: string): this;
  compile(options: { checkpointer?: BaseCheckpointSaver }): {
    invoke(input: unknown, config: Record<string, unknown>): Promise<{ messages: BaseMessage[] }>;
  };
}

/** LangGraph: the same chain; ms per node of one run with `saver` (or none). */
export async function langGraphRun(
  saver: BaseCheckpointSaver | undefined,
  thread: string,
  durability: string,
): Promise<number> {
  const model = new FakeListChatModel({ responses: [TEXT] });
  const b = new StateGraph(MessagesAnnotation) as unknown as LangGraphBuilder;
  for (let i = 0; i < NODES; i++) b.addNode(`n${i}`, async (s) => ({ messages: [await model.invoke(s.messages)] }));
  b.addEdge(START, 'n0');
  for (let i = 1; i < NODES; i++) b.addEdge(`n${i - 1}`, `n${i}`);
  b.addEdge(`n${NODES - 1}`, END);
  const app = b.compile(saver ? { checkpointer: saver } : {});
  const start = performance.now();
  const out = await app.invoke(
    { messages: [new HumanMessage('Route this request.')] },
    { configurable: { thread_id: thread }, durability, recursionLimit: NODES + 5 },
  );
  if (out.messages.length !== NODES + 1) throw new Error(`LangGraph run ${thread}: ${out.messages.length} messages`);
  return (performance.now() - start) / NODES;
}
