/**
 * The desk's guardrails, the same in every shape: personal data (e-mail, phone, card numbers, IBANs)
 * redacted in every customer message, every answer and every tool call; a prompt-injection judge on
 * the triage's input (the scripted `judge` model offline, the desk's model otherwise), beside the
 * triage's own model call; and a refund only for an order of the signed-in customer (the web desk's
 * principal is `customer:<id>`; the terminal desk is staff's and signs nobody in).
 */
import {
  GuardrailTripped,
  principalId,
  type Guardrail,
  type GuardrailContext,
  type GuardrailDecision,
  type Model,
  type ToolSubject,
} from '@skein/core';
import { findPii, injectionJudge, pii, redactPii } from '@skein/guardrails';
import type { DeskReply } from './desk.js';
import type { DeskStore } from './desk-store.js';

/** Redacts personal data (`[email]`, `[phone]`, `[card]`, `[iban]`) wherever it is given. */
export const deskPii: Guardrail = pii();

/** A customer message as the desk stores it (its personal data redacted as `deskPii` does). */
export function storedForm(message: string): string {
  return redactPii(message, findPii(message), (f) => `[${f.kind}]`);
}

/** The injection judge of the triage's input, on `model`. */
export function deskInjectionJudge(model: Model): Guardrail {
  return injectionJudge(model, { timeoutMs: 20_000 });
}

/** The customer a request comes from (`customer:<id>`), or `undefined` (the staff's terminal desk, a supervisor). */
function signedInCustomer(context: GuardrailContext): string | undefined {
  const id = context.principal === undefined ? undefined : principalId(context.principal);
  return id?.startsWith('customer:') ? id.slice('customer:'.length) : undefined;
}

/** Blocks a refund for an order that is not the signed-in customer's (the store knows each order's customer). */
export function ownOrdersOnly(store: DeskStore): Guardrail<ToolSubject> {
  return {
    name: 'own-orders',
    check: async (subject, context): Promise<GuardrailDecision> => {
      const customer = signedInCustomer(context);
      if (subject.phase !== 'before' || customer === undefined) return { action: 'pass' };
      const orderId = String((subject.input as { orderId?: unknown }).orderId ?? '');
      const order = await store.order(orderId);
      // An unknown order is the tool's to refuse (the model reads why).
      if (!order || order.customerId === customer) return { action: 'pass' };
      return { action: 'block', reason: `order ${orderId} is not an order of customer ${customer}` };
    },
  };
}

/** What the terminal desk prints for a turn a guardrail blocked. */
function blockedReply(error: GuardrailTripped): DeskReply {
  const what = error.where === 'tool' ? `a call of ${error.tool ?? 'a tool'}` : `the ${error.where}`;
  return {
    text: `(blocked: ${error.guardrail} stopped ${what}: ${error.reason})`,
    status: `blocked by ${error.guardrail}`,
  };
}

/** Runs a turn; a tripped guardrail becomes the blocked reply instead of an error. */
export async function unlessBlocked(run: () => Promise<DeskReply>): Promise<DeskReply> {
  try {
    return await run();
  } catch (error) {
    if (GuardrailTripped.is(error)) return blockedReply(error);
    throw error;
  }
}
