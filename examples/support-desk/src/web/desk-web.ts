/**
 * The support desk on the web: `@skein/server` serving the desk's Graph, Swarm and agent under the
 * name `desk` (`/v1/graphs/desk/...`, `/v1/swarms/desk/...`, `/v1/agents/desk/...`), each customer a
 * principal (`authorize`), one budget per conversation (`runOptions`); around it, the customer and
 * supervisor pages, their scripts, the supervisor's list of what waits, and each conversation's
 * inspector page. One Hono app; `serve()` runs it.
 */
import { isSafeMemoryId, principalId, RunBudget, type SessionManager } from '@skein/core';
import { Memory } from '@skein/memory';
import { createServer, type Limits, type ServerControl, type SkeinServer, type TargetKind } from '@skein/server';
import { Hono } from 'hono';
import { deskPii } from '../desk-guardrails.js';
import type { DeskModels } from '../desk-models.js';
import { DeskStore } from '../desk-store.js';
import type { DeskParts, DeskShape } from '../desk.js';
import type { DeskSessions } from '../open-desk.js';
import { buildDeskAgent } from '../shapes/agent-desk.js';
import { buildDeskGraph } from '../shapes/graph-desk.js';
import { buildDeskSwarm } from '../shapes/swarm-desk.js';
import { addApiRoutes } from './api-routes.js';
import type { Asset } from './assets.js';
import { ConversationDirectory } from './conversation-directory.js';
import { addDetailsRoute } from './details-route.js';
import { customerPrincipal, deskAuthorize, deskAuthorizeAnswer, type DeskKeys } from './identity.js';
import { addPageRoutes } from './page-routes.js';
import { TurnNotices } from './turn-notices.js';

export interface DeskWebOptions {
  /** Which shape the customer page talks to (all three are served). */
  shape: DeskShape;
  /** The shop's data, the directory of conversations and the supervisor's key live here. */
  dir: string;
  sessions: DeskSessions;
  models: DeskModels;
  /** Tokens each conversation may spend in this process. */
  budgetTokens: number;
  /** The supervisor's key (in the address the desk prints) and the key that signs customers' cookies. */
  keys: DeskKeys;
  assets: Map<string, Asset>;
  limits?: Partial<Limits>;
}

/** The route kind of each shape. */
export const KIND_OF: Readonly<Record<DeskShape, TargetKind>> = { graph: 'graphs', swarm: 'swarms', agent: 'agents' };

/** What the routes share. */
export interface DeskWebContext {
  options: DeskWebOptions;
  /** The `@skein/server` app the `/v1` routes go to. */
  forward(request: Request): Promise<Response>;
  directory: ConversationDirectory;
  notices: TurnNotices;
  /** What the conversation (its session id) spent in this process (a conversation that ran nothing here: nothing). */
  budgetView(sessionId: string): ReturnType<RunBudget['toJSON']>;
  /** The session id of a customer's conversation (conversation ids live in a namespace per customer). */
  sessionOf(customer: string, conversationId: string): string;
}

export function createDeskWeb(options: DeskWebOptions): SkeinServer {
  const store = new DeskStore(options.dir);
  // One memory for every conversation: each customer's, under their id (see `runOptions`).
  const memory = new Memory({ store: options.sessions.memoryStore() });
  const parts = (sessionManager: SessionManager): DeskParts => ({
    store,
    modelFor: options.models.modelFor,
    sessionManager,
    memory,
  });
  const budgets = new Map<string, RunBudget>();
  const budgetOf = (id: string): RunBudget => {
    let budget = budgets.get(id);
    if (!budget) budgets.set(id, (budget = new RunBudget({ totalTokens: options.budgetTokens })));
    return budget;
  };
  const skein = createServer({
    graphs: { desk: ({ sessionManager }) => buildDeskGraph(parts(sessionManager)) },
    swarms: { desk: ({ sessionManager }) => buildDeskSwarm(parts(sessionManager)) },
    agents: { desk: ({ sessionManager }) => buildDeskAgent(parts(sessionManager)) },
    sessions: options.sessions.managerFor,
    authorize: deskAuthorize(options.keys),
    authorizeAnswer: deskAuthorizeAnswer,
    // Personal data is redacted before the customer's message is stored at all (the agents redact it again, finding none).
    inputGuardrails: [deskPii],
    runOptions: ({ sessionId, principal, conversationId }) => {
      // The customer's id as the memory resource (the principal is `customer:<id>`, also when the supervisor acts for one).
      const customer = principalId(principal).replace(/^customer:/, '');
      const memoryTarget = isSafeMemoryId(customer) ? { memory: { resource: customer, thread: conversationId } } : {};
      return { budget: budgetOf(sessionId), ...memoryTarget };
    },
    ...(options.limits ? { limits: options.limits } : {}),
  });
  const ctx: DeskWebContext = {
    options,
    forward: async (request) => skein.fetch(request),
    directory: new ConversationDirectory(options.dir),
    notices: new TurnNotices(),
    budgetView: (id) => (budgets.get(id) ?? new RunBudget({ totalTokens: options.budgetTokens })).toJSON(),
    sessionOf: (customer, conversationId) => skein.skein.sessionIdOf(customerPrincipal(customer), conversationId),
  };
  const web = new Hono();
  const closeInspector = addPageRoutes(web, ctx);
  addApiRoutes(web, ctx);
  addDetailsRoute(web, ctx);
  const control: ServerControl = {
    async stop(stopOptions) {
      ctx.notices.closeAll();
      await skein.skein.stop(stopOptions);
      await closeInspector();
      await memory.close();
    },
    get runningTurns() {
      return skein.skein.runningTurns;
    },
    authorized: true,
    sessionIdOf: (principal, conversationId) => skein.skein.sessionIdOf(principal, conversationId),
  };
  return Object.assign(web, { skein: control });
}
