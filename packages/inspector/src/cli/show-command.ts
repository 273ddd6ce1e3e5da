import { paintFor } from '../render/ansi.js';
import { renderConversation } from '../render/text-conversation.js';
import { renderSteps } from '../render/text-steps.js';
import { renderSession } from '../render/text-timeline.js';
import type { InspectorStore } from '../store/inspector-store.js';
import type { SessionView } from '../view/session-view.js';
import { loadSession } from '../view/load-session.js';
import { runView } from '../view/run-view.js';
import { loadSteps } from '../view/steps-view.js';
import { UsageError } from './cli-io.js';
import { type CommandContext, need, userSession } from './command-line.js';
import { withStore } from './with-store.js';

/** `--agent <id>`: that agent's conversation. */
function writeAgent(session: SessionView, wanted: string, { values, io }: CommandContext): number {
  const agent = session.agents.find((a) => a.id === wanted || a.id.endsWith(`.${wanted}`));
  if (!agent)
    throw new UsageError(
      `Session ${session.id} has no agent "${wanted}" (agents: ${session.agents.map((a) => a.id).join(', ') || 'none'}).`,
    );
  io.stdout.write(
    values.json
      ? `${JSON.stringify(agent, null, 2)}\n`
      : renderConversation(agent, paintFor(io.stdout, io.env), values.full === true),
  );
  return 0;
}

/** `--steps`: every kept step of every orchestrator's run. */
async function writeSteps(
  store: InspectorStore,
  sessionId: string,
  session: SessionView,
  { values, io }: CommandContext,
): Promise<number> {
  const steps = await Promise.all(
    session.orchestrators.map(async (o) => [o.id, await loadSteps(store, sessionId, o.id, 'all')] as const),
  );
  const paint = paintFor(io.stdout, io.env);
  io.stdout.write(
    values.json
      ? `${JSON.stringify(Object.fromEntries(steps), null, 2)}\n`
      : steps.map(([id, list]) => renderSteps(id, list, paint)).join(''),
  );
  return 0;
}

/** The orchestrators' runs as a timeline. */
function writeTimeline(session: SessionView, { values, io }: CommandContext): number {
  const runs = session.orchestrators.map(runView);
  io.stdout.write(
    values.json
      ? `${JSON.stringify({ session: { id: session.id, type: session.type, problems: session.problems }, runs }, null, 2)}\n`
      : renderSession(session, runs, paintFor(io.stdout, io.env)),
  );
  return 0;
}

/** `skein show <store> <sessionId>`: a run's timeline, an agent's conversation (`--agent`) or the steps (`--steps`). */
export async function showCommand(context: CommandContext): Promise<number> {
  const { rest, values, io } = context;
  return await withStore(need(rest[0], 'the store'), io.env, async (store) => {
    const sessionId = userSession(need(rest[1], 'the session id'), values);
    const wanted = values.agent;
    const matches = (id: string): boolean => id === wanted || id.endsWith(`.${wanted ?? ''}`);
    const agentIds = wanted === undefined ? [] : (await store.listAgents(sessionId)).filter(matches);
    const session = await loadSession(store, sessionId, {
      messages: agentIds,
      steps: false,
      internal: values.internal === true,
    });
    if (wanted !== undefined) return writeAgent(session, wanted, context);
    if (values.steps) return await writeSteps(store, sessionId, session, context);
    return writeTimeline(session, context);
  });
}
