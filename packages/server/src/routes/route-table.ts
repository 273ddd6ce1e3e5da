/**
 * Every route of the server, once: its method, its path, what answers it, and the name of its
 * description (`routeDocs`). `createServer` registers the handlers from it, and `GET /openapi.json`
 * documents the same list, so the document cannot miss a route or list one that is not there.
 */
import type { Context } from 'hono';
import type { ServerContext } from '../server-context.js';
import { deleteConversation, getConversation, getPending, listConversations, postCancel } from './conversations.js';
import { postAgui } from './agui.js';
import { getEvals, postEvals } from './evals.js';
import { postAnswers, postMessage } from './messages.js';
import { getStream } from './stream.js';
import { getHistory, getStepState, postFork } from './time-travel.js';
import { postUi } from './ui.js';

/** The routes' names (the document's description of each is keyed by them). */
export type RouteName =
  | 'messages'
  | 'answers'
  | 'ui'
  | 'agui'
  | 'stream'
  | 'pending'
  | 'cancel'
  | 'read'
  | 'delete'
  | 'list'
  | 'history'
  | 'state'
  | 'fork'
  | 'evaluate'
  | 'evaluations';

/** One route. */
export interface ServerRoute {
  method: 'GET' | 'POST' | 'DELETE';
  /** Hono's form: `/v1/:kind/:name/conversations/:id/messages`. */
  path: string;
  doc: RouteName;
  handle: (ctx: ServerContext, c: Context) => Promise<Response>;
}

const CONV = '/v1/:kind/:name/conversations/:id';

/** The routes, in the order the document lists them. */
export const ROUTES: readonly ServerRoute[] = [
  { method: 'POST', path: `${CONV}/messages`, doc: 'messages', handle: postMessage },
  { method: 'POST', path: `${CONV}/answers`, doc: 'answers', handle: postAnswers },
  { method: 'GET', path: `${CONV}/stream`, doc: 'stream', handle: getStream },
  { method: 'GET', path: `${CONV}/pending`, doc: 'pending', handle: getPending },
  { method: 'POST', path: `${CONV}/cancel`, doc: 'cancel', handle: postCancel },
  { method: 'POST', path: `${CONV}/ui`, doc: 'ui', handle: postUi },
  { method: 'GET', path: `${CONV}/history`, doc: 'history', handle: getHistory },
  { method: 'GET', path: `${CONV}/history/:step`, doc: 'state', handle: getStepState },
  { method: 'POST', path: `${CONV}/fork`, doc: 'fork', handle: postFork },
  { method: 'GET', path: CONV, doc: 'read', handle: getConversation },
  { method: 'DELETE', path: CONV, doc: 'delete', handle: deleteConversation },
  { method: 'GET', path: '/v1/:kind/:name/conversations', doc: 'list', handle: listConversations },
  { method: 'POST', path: '/v1/:kind/:name/agui', doc: 'agui', handle: postAgui },
  { method: 'POST', path: '/v1/:kind/:name/evals', doc: 'evaluate', handle: postEvals },
  { method: 'GET', path: '/v1/:kind/:name/evals', doc: 'evaluations', handle: getEvals },
];
