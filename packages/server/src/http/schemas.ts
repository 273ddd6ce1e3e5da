/**
 * The zod schemas of the HTTP contract: they validate requests and generate `GET /openapi.json`, so
 * the document and the checks cannot drift apart. The path, query and header schemas at the end only
 * describe (the routes check those by hand, in the order the README gives).
 */
import { z } from 'zod';
import { RESERVED_PREFIX } from '../store/session-ids.js';

/** The named schemas of the OpenAPI document (`#/components/schemas/<id>`). */
export const schemaRegistry = z.registry<{ id: string }>();

/** Any JSON value (named, so the document refers to it instead of repeating it). */
const jsonValue = z.json();

/** A conversation id: a session id that cannot leave the store (no separators, no NUL, no `..`), at most 128 characters. */
export const conversationIdSchema = z
  .string()
  .min(1, 'is empty; use 1-128 characters from A-Z a-z 0-9 _ . @ = + -')
  .max(128, 'is longer than 128 characters; use a shorter id (a UUID fits)')
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.@=+-]*$/,
    'may only hold A-Z a-z 0-9 _ . @ = + - and must start with a letter or digit (no /, \\, NUL or spaces)',
  )
  .refine((id) => !id.includes('..'), 'must not contain ".."')
  .refine(
    (id) => !RESERVED_PREFIX.test(id),
    'starts with "skein-", which is kept for the server\'s own sessions; use another id',
  )
  .meta({
    description:
      "The conversation id, the principal's own (one conversation is one session of the store; ids starting with skein- are reserved).",
    example: 'order-42',
  });

/** Bytes of an image or document, base64 in JSON. */
const bytesSource = z.strictObject({ bytes: z.base64('must be base64-encoded bytes') });

/** The content blocks a client may send: text, images and documents. */
const inputBlockSchema = z.union([
  z.strictObject({ text: z.string().meta({ description: 'Text.' }) }),
  z.strictObject({
    image: z.strictObject({ format: z.enum(['png', 'jpeg', 'gif', 'webp']), source: bytesSource }),
  }),
  z.strictObject({
    document: z.strictObject({
      format: z.enum(['pdf', 'csv', 'doc', 'docx', 'xls', 'xlsx', 'html', 'txt', 'md']),
      name: z.string().min(1).max(200),
      source: bytesSource,
    }),
  }),
]);

/** `POST .../messages`. */
export const messageBodySchema = z.strictObject({
  message: z
    .union([
      z.string().min(1, 'is empty; send the text of the message'),
      z.array(inputBlockSchema).min(1, 'is an empty list; send at least one content block').max(50),
    ])
    .meta({ description: 'The text, or content blocks (`{ text }`, `{ image }`, `{ document }`).' }),
  wait: z.boolean().optional().meta({
    description: 'When a turn is running: wait for it to end (up to limits.waitMs) instead of answering 409.',
  }),
});

/** `POST .../answers`. */
export const answersBodySchema = z.strictObject({
  answers: z
    .record(z.string().min(1).max(512), z.json())
    .refine((a) => Object.keys(a).length > 0, 'is empty; answer every pending interrupt (GET .../pending lists them)')
    .meta({
      description: 'One answer per pending interrupt id, e.g. `{ "tooluse_1#approval": { "approved": true } }`.',
    }),
  wait: z.boolean().optional().meta({ description: 'As for messages.' }),
});

/** `POST .../ui`: what the AI SDK's `DefaultChatTransport` sends (only the last message is read). */
export const uiBodySchema = z.looseObject({
  id: z.string().optional(),
  messages: z
    .array(
      z.looseObject({
        id: z.string().optional(),
        role: z.enum(['user', 'assistant', 'system']),
        parts: z.array(z.looseObject({ type: z.string() })),
      }),
    )
    .min(1, 'is empty; send the conversation with the new user message last'),
  trigger: z.string().optional(),
  messageId: z.string().optional(),
});

/** An interrupt: what a run waits for. */
const interruptSchema = z.object({
  id: z.string(),
  name: z.string(),
  reason: jsonValue,
  source: z.string(),
  toolUse: z.object({ toolUseId: z.string(), name: z.string(), input: jsonValue }).optional(),
});

/** Token counts. */
const usageSchema = z.object({ inputTokens: z.number(), outputTokens: z.number(), totalTokens: z.number() });

/** How a turn ended (or that it runs). */
const turnStatusSchema = z.enum([
  'blocked',
  'running',
  'completed',
  'interrupted',
  'failed',
  'cancelled',
  'budgetExceeded',
  'stopped',
]);

/** The guardrail that blocked a turn (`status: 'blocked'`). */
const guardrailTripSchema = z.object({
  guardrail: z.string(),
  reason: z.string(),
  where: z.enum(['input', 'output', 'tool']),
  path: z.string().meta({ description: 'Where in the run tree: the agent, or the node path (`desk/refund`).' }),
  tool: z.string().optional(),
});

/** The result of one turn: the JSON answer of `POST .../messages`, and the `turnEnd` event. */
export const turnResultSchema = z.object({
  conversationId: z.string(),
  turn: z.number().int(),
  status: turnStatusSchema,
  text: z.string().meta({ description: 'The final text (the last node for a graph).' }),
  interrupts: z.array(interruptSchema),
  stopReason: z.string().optional(),
  failureReason: z.string().optional(),
  usage: usageSchema.optional(),
  executionTimeMs: z.number().optional(),
  guardrail: guardrailTripSchema.optional(),
});

/** One stored turn, as a conversation lists it. */
const turnSummarySchema = z.object({
  turn: z.number().int(),
  status: turnStatusSchema,
  prompt: z.string().meta({ description: 'The message (its text), or a note for answers.' }),
  answers: z
    .record(z.string(), z.json())
    .optional()
    .meta({ description: 'A turn that answered interrupts: the answers, by interrupt id (an approval and its note).' }),
  text: z.string().optional(),
  interrupts: z.array(interruptSchema).optional(),
  failureReason: z.string().optional(),
  guardrail: guardrailTripSchema.optional(),
  startedAt: z.string(),
  endedAt: z.string().optional(),
});

/** `GET .../conversations/{id}`. */
export const conversationSchema = z.object({
  id: z.string(),
  kind: z.enum(['agents', 'graphs', 'swarms']),
  name: z.string(),
  createdAt: z.string(),
  status: turnStatusSchema.or(z.literal('new')),
  turns: z.array(turnSummarySchema),
  messages: z.array(jsonValue).optional().meta({ description: 'An agent: its whole stored history.' }),
  transitions: z.array(jsonValue).optional().meta({ description: "A graph or swarm: the last run's transitions." }),
  interrupts: z.array(interruptSchema),
});

/** `GET .../conversations`. */
export const conversationListSchema = z.object({
  conversations: z.array(z.object({ id: z.string(), createdAt: z.string(), title: z.string() })),
  next: z.string().optional().meta({ description: 'Pass as `cursor` for the next page.' }),
});

/** `GET .../pending`. */
export const pendingSchema = z.object({ conversationId: z.string(), interrupts: z.array(interruptSchema) });

/** `POST .../cancel`. */
export const cancelSchema = z.object({ conversationId: z.string(), turn: z.number().int(), cancelled: z.boolean() });

/** `GET .../conversations` query. */
export const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z.string().max(200).optional(),
});

/** A problem document (RFC 9457). */
export const problemSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  instance: z.string().optional(),
  field: z.string().optional(),
  retryAfter: z.number().optional(),
});

type MessageBody = z.infer<typeof messageBodySchema>;
type AnswersBody = z.infer<typeof answersBodySchema>;
/**
 * `POST /v1/{kind}/{name}/agui`: AG-UI's `RunAgentInput` (checked by `@ag-ui/core`'s own schema; this
 * one describes it in the document).
 */
export const aguiBodySchema = z
  .looseObject({
    threadId: z.string().meta({ description: "The conversation id (the principal's own, as in the other routes)." }),
    runId: z.string().meta({ description: 'The run (turn); the runId of the running turn re-joins it.' }),
    messages: z
      .array(z.looseObject({ id: z.string(), role: z.string(), content: z.json().optional() }))
      .meta({ description: "The thread's messages; only the last one (the user's) is read." }),
    resume: z
      .array(
        z.looseObject({
          interruptId: z.string(),
          status: z.enum(['resolved', 'cancelled']),
          payload: z.json().optional(),
        }),
      )
      .optional()
      .meta({
        description: 'Answers to every interrupt the last run ended with (an approval: `{ approved, message? }`).',
      }),
    tools: z.array(z.json()).optional(),
    context: z.array(z.json()).optional(),
    state: z.json().optional(),
    forwardedProps: z.json().optional(),
  })
  .meta({ description: "AG-UI's RunAgentInput." });

export type UiBody = z.infer<typeof uiBodySchema>;
export type InputBlock = z.infer<typeof inputBlockSchema>;

/** Registers the named schemas (once, at the first OpenAPI request: no work at import). */
export function registerSchemas(): void {
  if (schemaRegistry.has(problemSchema)) return;
  schemaRegistry.add(messageBodySchema, { id: 'MessageRequest' });
  schemaRegistry.add(answersBodySchema, { id: 'AnswersRequest' });
  schemaRegistry.add(uiBodySchema, { id: 'UiChatRequest' });
  schemaRegistry.add(aguiBodySchema, { id: 'AguiRunAgentInput' });
  schemaRegistry.add(interruptSchema, { id: 'Interrupt' });
  schemaRegistry.add(turnResultSchema, { id: 'TurnResult' });
  schemaRegistry.add(turnSummarySchema, { id: 'TurnSummary' });
  schemaRegistry.add(conversationSchema, { id: 'Conversation' });
  schemaRegistry.add(conversationListSchema, { id: 'ConversationList' });
  schemaRegistry.add(pendingSchema, { id: 'Pending' });
  schemaRegistry.add(cancelSchema, { id: 'CancelResult' });
  schemaRegistry.add(problemSchema, { id: 'Problem' });
  schemaRegistry.add(jsonValue, { id: 'JsonValue' });
}

const kindSchema = z.enum(['agents', 'graphs', 'swarms']);
const nameSchema = z.string().meta({ description: 'A key of `agents`, `graphs` or `swarms` given to createServer.' });

/** The path of a route of an agent, graph or swarm. */
export const targetPathSchema = z.object({ kind: kindSchema, name: nameSchema });

/** The path of a route of one conversation. */
export const conversationPathSchema = z.object({ kind: kindSchema, name: nameSchema, id: conversationIdSchema });

/** `GET .../stream`: where to re-join, and in which format. */
export const streamQuerySchema = z.object({
  lastEventId: z
    .string()
    .optional()
    .meta({ description: 'As the Last-Event-ID header (for clients that cannot send it).' }),
  format: z.enum(['server', 'ui']).optional().meta({ description: '`ui`: the AI SDK UI message stream.' }),
});

/** `GET .../stream`: the id of the last event the client saw. */
export const streamHeadersSchema = z.object({
  'last-event-id': z
    .string()
    .regex(/^\d+\.\d+\.\d+$/)
    .optional()
    .meta({ description: '`<turn>.<attempt>.<seq>`: the events after it, then the live ones.' }),
});
