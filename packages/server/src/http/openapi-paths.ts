/**
 * The `paths` of the OpenAPI document, route by route: a turn (messages, answers, the AI SDK UI
 * stream), re-joining a turn's stream, a conversation (read, delete, pending, cancel), the list.
 */
export type Json = Record<string, unknown>;

const ref = (id: string): Json => ({ $ref: `#/components/schemas/${id}` });
const problem = (description: string): Json => ({
  description,
  content: { 'application/problem+json': { schema: ref('Problem') } },
});
const json = (id: string, description: string): Json => ({
  description,
  content: { 'application/json': { schema: ref(id) } },
});
const sse = (description: string): Json => ({
  description,
  content: { 'text/event-stream': { schema: { type: 'string' } } },
});

const ERRORS: Record<string, Json> = {
  '400': problem('Invalid request: the problem document names the field (`field`) and what to do.'),
  '401': problem('No valid credentials (`authorize` returned undefined).'),
  '403': problem('`authorize` refused the request.'),
  '404': problem('Unknown kind, name or conversation (also a conversation of another principal).'),
  '429': problem('Too many turns for this principal this minute; see `retry-after`.'),
  '503': problem('The server is stopping or runs as many turns as it may; see `retry-after`.'),
};

function op(summary: string, responses: Record<string, Json>, extra: Json = {}): Json {
  return { summary, ...extra, responses: { ...responses, ...ERRORS } };
}

const body = (id: string): Json => ({
  requestBody: { required: true, content: { 'application/json': { schema: ref(id) } } },
});

/** What every route of one conversation shares: its path, its path parameters, a turn's responses. */
interface Routes {
  base: string;
  conv: string;
  kind: Json;
  name: Json;
  params: { parameters: Json[] };
  turnResponses: Record<string, Json>;
}

function routes(idSchema: Json): Routes {
  const kind = {
    name: 'kind',
    in: 'path',
    required: true,
    schema: { type: 'string', enum: ['agents', 'graphs', 'swarms'] },
  };
  const name = {
    name: 'name',
    in: 'path',
    required: true,
    schema: { type: 'string' },
    description: 'A key of `agents`, `graphs` or `swarms` given to createServer.',
  };
  const id = { name: 'id', in: 'path', required: true, schema: idSchema };
  const base = '/v1/{kind}/{name}/conversations';
  const turnResponses = {
    '200': {
      description:
        "The turn's result (JSON), or with `Accept: text/event-stream` its events as SSE (`id`, `event` = type, `data` = JSON).",
      content: {
        'application/json': { schema: ref('TurnResult') },
        'text/event-stream': { schema: { type: 'string' } },
      },
    },
    '409': problem(
      'A turn is running (`running` says which), the last turn is unfinished, or another process holds the conversation.',
    ),
    '413': problem('The body or the message is too large.'),
    '415': problem('The body is not JSON.'),
  };
  return { base, conv: `${base}/{id}`, kind, name, params: { parameters: [kind, name, id] }, turnResponses };
}

/** Routes that run a turn: a message, answers to what waits, the AI SDK UI stream. */
function turnPaths({ conv, params, turnResponses }: Routes): Json {
  return {
    [`${conv}/messages`]: {
      ...params,
      post: op('Send a message: the final result as JSON, or the run as SSE.', turnResponses, body('MessageRequest')),
    },
    [`${conv}/answers`]: {
      ...params,
      post: op(
        'Answer what the conversation waits for; the run goes on.',
        { ...turnResponses, '422': problem('The answers do not fit the pending interrupts (`pending` lists them).') },
        body('AnswersRequest'),
      ),
    },
    [`${conv}/ui`]: {
      ...params,
      post: op(
        'The AI SDK UI message stream (useChat / Chat with DefaultChatTransport).',
        {
          '200': sse('UI message chunks (`x-vercel-ai-ui-message-stream: v1`).'),
          '409': problem('A turn is running.'),
        },
        body('UiChatRequest'),
      ),
    },
  };
}

/** Re-joining the current turn's stream. */
function streamPath({ conv, params }: Routes): Json {
  return {
    [`${conv}/stream`]: {
      ...params,
      get: op(
        'Re-join the current turn: after `Last-Event-ID`, then live; resumes a turn cut by a restart.',
        {
          '200': sse('The events (or with `?format=ui` the AI SDK UI message stream).'),
          '204': { description: 'Nothing runs and nothing is left to resume.' },
          '409': problem('Another process runs the conversation.'),
        },
        {
          parameters: [
            {
              name: 'Last-Event-ID',
              in: 'header',
              required: false,
              schema: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+$' },
            },
            { name: 'lastEventId', in: 'query', required: false, schema: { type: 'string' } },
            { name: 'format', in: 'query', required: false, schema: { type: 'string', enum: ['server', 'ui'] } },
          ],
        },
      ),
    },
  };
}

/** A conversation: read, delete, what it waits for, cancel its turn; and the list of them. */
function conversationPaths({ base, conv, kind, name, params }: Routes): Json {
  return {
    [`${conv}/pending`]: {
      ...params,
      get: op('What the conversation waits for (interrupts, approvals).', {
        '200': json('Pending', 'The pending interrupts.'),
      }),
    },
    [`${conv}/cancel`]: {
      ...params,
      post: op('Cancel the running turn.', {
        '202': json('CancelResult', 'The turn is being cancelled.'),
        '409': problem('No turn runs here.'),
      }),
    },
    [conv]: {
      ...params,
      get: op('Read a conversation: turns, messages or transitions, status, what waits.', {
        '200': json('Conversation', 'The conversation.'),
      }),
      delete: op('Delete a conversation and everything stored of it.', {
        '204': { description: 'Deleted.' },
        '409': problem('A turn is running.'),
      }),
    },
    [base]: {
      parameters: [kind, name],
      get: op(
        "The principal's conversations with this agent, graph or swarm.",
        { '200': json('ConversationList', 'A page of conversations.') },
        {
          parameters: [
            { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 200 } },
            { name: 'cursor', in: 'query', required: false, schema: { type: 'string' } },
          ],
        },
      ),
    },
  };
}

/** The order of the paths in the document. */
const ORDER = ['messages', 'answers', 'stream', 'pending', 'cancel', 'ui', '', 'list'];

/** Every route's path item, keyed by path. */
export function paths(idSchema: Json): Json {
  const r = routes(idSchema);
  const all: Json = { ...turnPaths(r), ...streamPath(r), ...conversationPaths(r) };
  const keyOf = (route: string): string => (route === 'list' ? r.base : route === '' ? r.conv : `${r.conv}/${route}`);
  return Object.fromEntries(ORDER.map((route) => [keyOf(route), all[keyOf(route)]]));
}
