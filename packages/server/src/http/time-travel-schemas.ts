/**
 * The zod schemas of the time-travel routes (`GET .../history`, `GET .../history/{step}`,
 * `POST .../fork`): they validate the fork's body and describe all three in `GET /openapi.json`.
 */
import { z } from 'zod';
import { conversationIdSchema, conversationPathSchema } from './schemas.js';

/** A step number as the path carries it (`GET .../history/{step}`). */
export const stepSchema = z.coerce
  .number('must be a step number (0, 1, 2...; GET .../history lists them)')
  .int('must be a whole step number (GET .../history lists them)')
  .min(0, 'must be 0 or more (GET .../history lists the steps)');

/** The path of `GET .../history/{step}`. */
export const stepPathSchema = conversationPathSchema.extend({ step: stepSchema });

/** `POST .../fork`. */
export const forkBodySchema = z.strictObject({
  step: z
    .number('must be a step number (GET .../history lists them)')
    .int('must be a whole step number')
    .min(0, 'must be 0 or more')
    .meta({ description: 'The committed step to continue from (`GET .../history` lists them).' }),
  to: conversationIdSchema.meta({
    description: "The new conversation's id (the principal's own; it must not exist yet).",
    example: 'order-42-what-if',
  }),
  edit: z
    .record(z.string(), z.json())
    .optional()
    .meta({
      description:
        "What to change before the fork goes on, as the orchestrator's `fork({ edit })` takes it: `results` (a node's result text, by node id), `lastMessage`, `toolResults` (by tool use id), `agentState`, a graph's `task` and `next`, a swarm's own fields.",
      example: { results: { triage: 'ROUTE: billing' } },
    }),
});

/** One step of the history, as the orchestrator's `history()` lists it. */
const historyStepSchema = z.looseObject({
  step: z.number().int(),
  run: z.number().int(),
  at: z.string(),
  status: z.string(),
  transitions: z.array(z.json()),
});

/** `GET .../history`. */
export const historySchema = z.object({
  conversationId: z.string(),
  steps: z.array(historyStepSchema).meta({ description: 'Every kept step of every run, oldest first.' }),
});

/** `GET .../history/{step}`. */
export const stepStateSchema = z.object({
  conversationId: z.string(),
  state: z.looseObject({ step: z.number().int(), results: z.record(z.string(), z.json()) }).meta({
    description:
      'The orchestrator as it stood then (`stateAt(step)`): task, each node result, the transitions up to the step, each agent node’s messages and state.',
  }),
});

/** `POST .../fork` answers 201 with this. */
export const forkResultSchema = z.object({
  conversationId: z
    .string()
    .meta({ description: 'The new conversation: send it a message to run it on from the step.' }),
  forkedFrom: z.object({ conversationId: z.string(), step: z.number().int() }),
  changes: z.array(z.string()).meta({ description: 'The edits, in words.' }),
});
