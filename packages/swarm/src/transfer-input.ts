import { defaultHandoffDescription, type Agent, type Handoff, type JsonObject, type JsonValue } from '@skein/core';
import { handoff } from '@skein/handoffs';
import { z } from 'zod';

/** The arguments of a swarm's default transfer tools. */
export const TransferInput = z.object({
  message: z
    .string()
    .optional()
    .describe('What the next agent should know or do: the request in your words, what you found, what is left.'),
  context: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'Facts to share with every later agent, as key-value pairs (JSON values), e.g. {"invoice_id": "INV-42"}.',
    ),
});

/** What a transfer carries to the next agent: an optional message and shared-context entries. */
export interface TransferPayload {
  message: string | undefined;
  context: JsonObject | undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype
  );
}

function isJson(value: unknown): value is JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJson);
  return isPlainObject(value) && Object.values(value).every(isJson);
}

/**
 * The message and shared context in a transfer's input: `message` (a string) and `context` (an
 * object of JSON values) when the input has them, whichever handoff carried it. Non-JSON context is
 * refused with a TypeError.
 */
export function transferPayload(input: unknown): TransferPayload {
  if (!isPlainObject(input)) return { message: undefined, context: undefined };
  const message = typeof input['message'] === 'string' && input['message'].trim() !== '' ? input['message'] : undefined;
  const raw = input['context'];
  if (!isPlainObject(raw)) return { message, context: undefined };
  if (!isJson(raw))
    throw new TypeError(
      'The shared context of a transfer must hold JSON values only (string, number, boolean, null, array, object).',
    );
  return { message, context: raw };
}

/** The default handoff from one member to `target`: `transfer_to_<name>` with a message and shared context. */
export function defaultTransfer(target: Agent): Handoff {
  const about = target.handoffDescription ? '' : target.description ? ` ${target.description}` : '';
  return handoff(target, {
    inputType: TransferInput,
    toolDescriptionOverride:
      `${defaultHandoffDescription(target)}${about} ` +
      'Optionally pass a message for that agent and context entries (facts every later agent should see).',
  });
}
