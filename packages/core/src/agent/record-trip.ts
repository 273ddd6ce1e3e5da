import type { GuardrailTripped } from '../errors/guardrail-errors.js';
import { tripMarkers } from '../guardrails/tripwire.js';
import type { Conversation } from './conversation.js';
import type { OpenInvocation } from './invocation.js';

/**
 * Records a trip in the history when its invocation closes (after dangling tool uses were closed):
 * its markers are appended (and so stored by a session manager), and the error gets the invocation's
 * result (stop reason `guardrail_tripped`, the marker as its message).
 */
export async function recordTrip(
  conversation: Conversation,
  opened: OpenInvocation,
  tripped: GuardrailTripped,
): Promise<void> {
  const markers = tripMarkers(tripped.trip, conversation.messages);
  for (const message of markers) {
    const hooked = conversation.append(message);
    if (hooked) await hooked;
  }
  const message = markers[markers.length - 1] ?? { role: 'assistant', content: [] };
  tripped.result = opened.result({ stopReason: 'guardrail_tripped', message, handoff: undefined });
}
