import {
  defaultHandoffDescription,
  handoffToolName,
  type Agent,
  type Handoff,
  type InputValidator,
  type JsonObject,
  type JsonSchema,
  type JsonValue,
} from '@skein/core';

const MESSAGE = 'What the next agent should know or do: the request in your words, what you found, what is left.';
const CONTEXT =
  'Facts to share with every later agent, as key-value pairs (JSON values), e.g. {"invoice_id": "INV-42"}.';

/** The JSON schema of a swarm's default transfer tools' arguments (what the model is shown). */
const TRANSFER_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    message: { description: MESSAGE, type: 'string' },
    context: { description: CONTEXT, type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
  },
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype
  );
}

/** How a wrong value is named in an issue, as zod names it. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function wrongType(path: string[], expected: string, value: unknown) {
  return {
    code: 'invalid_type',
    path,
    message: `Invalid input: expected ${expected}, received ${kindOf(value)}`,
  };
}

/**
 * Checks the arguments of a swarm's default transfer tools: an object with an optional `message`
 * (a string) and an optional `context` (an object); other keys are dropped. Written out rather than
 * as a zod schema so that importing `@skein/swarm` does not load zod (about 100 ms); its issues read
 * as zod's would.
 */
export const TransferInput: InputValidator & { readonly jsonSchema: JsonSchema } = {
  jsonSchema: TRANSFER_SCHEMA,
  safeParse(input) {
    if (!isPlainObject(input)) return { success: false, error: { issues: [wrongType([], 'object', input)] } };
    const issues = [];
    const { message, context } = input;
    if (message !== undefined && typeof message !== 'string') issues.push(wrongType(['message'], 'string', message));
    if (context !== undefined && !isPlainObject(context)) issues.push(wrongType(['context'], 'record', context));
    if (issues.length > 0) return { success: false, error: { issues } };
    return {
      success: true,
      data: { ...(message !== undefined ? { message } : {}), ...(context !== undefined ? { context } : {}) },
    };
  },
};

/** What a transfer carries to the next agent: an optional message and shared-context entries. */
export interface TransferPayload {
  message: string | undefined;
  context: JsonObject | undefined;
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
  return {
    kind: 'handoff',
    agent: target,
    toolName: handoffToolName(target.name),
    toolDescription:
      `${defaultHandoffDescription(target)}${about} ` +
      'Optionally pass a message for that agent and context entries (facts every later agent should see).',
    inputSchema: TransferInput,
    inputJsonSchema: TRANSFER_SCHEMA,
    inputFilter: undefined,
    nestHandoffHistory: undefined,
    isEnabled: () => true,
    onHandoff: () => undefined,
  };
}
