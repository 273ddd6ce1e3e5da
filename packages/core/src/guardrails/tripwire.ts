/**
 * A tripwire's record: the event watchers get when it fires, and the messages that take the blocked
 * turn's place in the history (so the session keeps where and why, the history stays valid for the
 * next turn, and nothing the guardrail blocked is stored).
 */
import type { GuardrailTrip, GuardrailTripped } from '../errors/guardrail-errors.js';
import type { Message } from '../types/messages.js';

/** Where the loop hands the trip's event (`undefined`: nothing to await). */
type Emit = (event: { type: 'guardrailTripped' } & GuardrailTrip) => Promise<void> | undefined;

/** Trips already told to the watchers. */
const told = new WeakSet<GuardrailTripped>();

/** Tells the watchers a guardrail blocked the turn (before `invoke`/`stream` reject), once per trip. */
export function emitTrip(emit: Emit, unobserved: boolean, tripped: GuardrailTripped): Promise<void> | undefined {
  if (unobserved || told.has(tripped)) return undefined;
  told.add(tripped);
  return emit({ type: 'guardrailTripped', ...tripped.trip });
}

/** The text of a trip's marker: `[withheld: guardrail pii blocked the output: a card number]`. */
function markerText(trip: GuardrailTrip, what: string): string {
  return `[withheld: guardrail ${trip.guardrail} blocked ${what}: ${trip.reason}]`;
}

/**
 * The messages that record a trip after `history`: a blocked prompt becomes a user marker (the prompt
 * itself is not stored), and an assistant marker ends the turn (the blocked answer or tool call is
 * not stored), so user and assistant messages still alternate.
 */
export function tripMarkers(trip: GuardrailTrip, history: readonly Message[]): Message[] {
  const markers: Message[] = [];
  if (trip.where === 'input') markers.push({ role: 'user', content: [{ text: markerText(trip, 'this message') }] });
  const lastRole = markers.length > 0 ? 'user' : history[history.length - 1]?.role;
  if (lastRole === 'user') {
    const what =
      trip.where === 'input'
        ? 'the message before'
        : trip.where === 'tool'
          ? `a call of tool ${trip.tool ?? '?'}`
          : 'the answer';
    markers.push({ role: 'assistant', content: [{ text: markerText(trip, what) }] });
  }
  return markers;
}
