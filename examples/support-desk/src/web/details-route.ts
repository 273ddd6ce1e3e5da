/**
 * `GET /desk/api/conversations/{id}/details?kind=graphs|swarms|agents`: each case's details of a
 * stored conversation (`case-details.ts`), for the customer page, so that a page opened again shows
 * what the live page showed. Who may read it is the server's decision: the desk first reads the
 * conversation through the server's own route with the request's credentials, and answers what the
 * server answered unless that was a 200 (another customer's conversation is a 404, as there).
 */
import { OrchestratorHistory, type Message, type SessionMessage } from '@skein/core';
import type { Hono } from 'hono';
import { DESK_GRAPH_ID } from '../shapes/graph-desk.js';
import { DESK_SWARM_ID } from '../shapes/swarm-desk.js';
import { agentDetails, orchestratorDetails } from './case-details.js';
import { answerText } from './client/desk-words.js';
import type { DeskWebContext } from './desk-web.js';
import { customerOf, ON_BEHALF_HEADER } from './identity.js';

const KINDS = ['graphs', 'swarms', 'agents'];

/** The parts of the server's conversation view the details need. */
interface View {
  turns: { status: string; text?: string }[];
  messages?: Message[];
}

export function addDetailsRoute(web: Hono, ctx: DeskWebContext): void {
  web.get('/desk/api/conversations/:id/details', async (c) => {
    const kind = c.req.query('kind') ?? '';
    if (!KINDS.includes(kind))
      return c.json({ title: 'Bad request', status: 400, detail: 'kind must be graphs, swarms or agents.' }, 400);
    const id = c.req.param('id');
    const path = `/v1/${kind}/desk/conversations/${encodeURIComponent(id)}`;
    const read = await ctx.forward(new Request(new URL(path, c.req.url), { headers: c.req.raw.headers }));
    if (!read.ok) return read;
    const view = (await read.json()) as View;
    // The answers are the cases' answers on the page, not details again.
    const answers = view.turns.filter((t) => t.status === 'completed' && t.text);
    const skip = new Set(answers.flatMap((t) => [(t.text ?? '').trim(), answerText(t.text ?? '')]));
    if (kind === 'agents') return c.json({ cases: agentDetails(view.messages ?? [], skip) });
    // The server let these credentials read it: the customer's own cookie, or the supervisor acting
    // for the customer named in the header. Conversation ids live in a namespace per customer.
    const customer = c.req.header(ON_BEHALF_HEADER) ?? customerOf(c.req.raw, ctx.options.keys.cookie);
    if (customer === undefined) return c.json({ title: 'Unauthorized', status: 401, detail: 'Sign in first.' }, 401);
    const sessionId = ctx.sessionOf(customer, id);
    const manager = ctx.options.sessions.managerFor(sessionId);
    try {
      const orchestrator = kind === 'graphs' ? DESK_GRAPH_ID : DESK_SWARM_ID;
      const steps = await new OrchestratorHistory(manager.repository, sessionId, orchestrator).steps();
      const read = new Map<string, Promise<SessionMessage[]>>();
      const messagesOf = (storeId: string): Promise<SessionMessage[]> => {
        if (!read.has(storeId)) read.set(storeId, manager.repository.listMessages(sessionId, storeId));
        return read.get(storeId) as Promise<SessionMessage[]>;
      };
      return c.json({ cases: await orchestratorDetails(steps, orchestrator, messagesOf, skip) });
    } finally {
      await manager.close();
    }
  });
}
