/**
 * A final answer that only announces a transfer: the model wrote "I'll transfer you to billing" and
 * never called the tool. Pure checks; the swarm gives such a member one repair turn.
 */
import type { Handoff, Message } from '@skein/core';

/** How a repair note starts (so a turn that already got one is recognised, also after a resume). */
const REPAIR_NOTE_PREFIX = '[Transfer not made]';

const CUE = String.raw`(?:i'll|i will|i'm going to|i am going to|i'm about to|i am about to|let me|we'll|we will|i shall)\s+(?:now\s+|just\s+|quickly\s+|go ahead and\s+)?`;
const VERB = String.raw`(?:transfer|hand|connect|pass|forward|route|escalate|send)`;
const DOING = String.raw`(?:transferring|transferred|handing|handed|connecting|connected|passing|forwarding|routing|escalating|sending)`;
const OBJECT = String.raw`(?:\s+(?:you|it|them|(?:this|that|the|your)(?:\s+(?:conversation|chat|call|case|request|question|ticket|issue))?))?`;
const PARTICLE = String.raw`(?:\s+(?:over|on|off|back|along))?`;
const TO = String.raw`\s+(?:to|with)\s+(?:the\s+|our\s+|a\s+)?`;
/** The start of every `announced` pattern (see `patternsOf`): a first-person transfer verb or a "transferring" form. */
const ANNOUNCING = new RegExp(String.raw`(?:\b${CUE}${VERB}|\b${DOING})\b`);

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The ways a text may name a member: its name, with spaces or underscores, and without a trailing "agent". */
function namesOf(name: string): string[] {
  const lower = name.toLowerCase().trim();
  const spaced = lower.replace(/[_-]+/g, ' ');
  const short = spaced.replace(/\s+(?:agent|bot|assistant)$/, '');
  return [...new Set([lower, spaced, short])].filter((n) => n.length > 2);
}

/**
 * The handoff a final text announces without calling it, or `undefined`. It counts as announced
 * when the text names an offered `transfer_to_*` tool, or says it is transferring (a first-person
 * "I'll / let me / I'm going to" + transfer verb, or "transferring / handing ... over") to an offered
 * target by name. A text that only mentions a member ("your billing address"), offers a transfer
 * ("I can transfer you to billing if you like") or refuses one ("I will not transfer you") does not.
 */
export function narratedHandoff(text: string, offered: readonly Handoff[]): Handoff | undefined {
  const lower = text.toLowerCase().replace(/[\u2018\u2019]/g, "'");
  const byTool = offered.find((h) => patternsOf(h).byTool.test(lower));
  if (byTool) return byTool;
  // Every `announced` pattern starts with this one: a text without it announces no transfer.
  if (!ANNOUNCING.test(lower)) return undefined;
  return offered.find((h) => patternsOf(h).announced.test(lower));
}

/** The patterns that find a handoff announced in a text, made from its tool name and its agent's name. */
interface HandoffPatterns {
  byTool: RegExp;
  announced: RegExp;
}

/**
 * Patterns by tool name and agent name: every final answer is checked against every offered handoff,
 * and compiling the patterns costs far more than testing them (a swarm built per request has new
 * handoff objects, but the same names). No `g` flag, so a pattern keeps no state between tests. The
 * cache is bounded: names made per request must not grow it without end.
 */
const patternCache = new Map<string, HandoffPatterns>();
const MAX_CACHED_PATTERNS = 1000;

function patternsOf(h: Handoff): HandoffPatterns {
  const key = `${h.toolName}\n${h.agent.name}`;
  const known = patternCache.get(key);
  if (known) return known;
  const names = namesOf(h.agent.name).map(escape).join('|');
  const made: HandoffPatterns = {
    byTool: new RegExp(String.raw`\b${escape(h.toolName.toLowerCase())}\b`),
    announced: new RegExp(String.raw`(?:\b${CUE}${VERB}|\b${DOING})\b${OBJECT}${PARTICLE}${TO}(?:${names})\b`),
  };
  if (patternCache.size >= MAX_CACHED_PATTERNS) patternCache.clear();
  patternCache.set(key, made);
  return made;
}

/** The user note that gives a member one more turn after it announced a transfer it did not make. */
export function repairNote(handoff: Handoff): Message {
  const text =
    `${REPAIR_NOTE_PREFIX} You said you would transfer the conversation to ${handoff.agent.name}, but you did not call ${handoff.toolName}, ` +
    `so no transfer happened. Call ${handoff.toolName} now to transfer it, or answer the customer yourself.`;
  return { role: 'user', content: [{ text }] };
}

/** True when `items` already hold a repair note (a member gets at most one per activation). */
export function hasRepairNote(items: readonly Message[]): boolean {
  return items.some(
    (m) =>
      m.role === 'user' &&
      m.content.some((b) => 'text' in b && typeof b.text === 'string' && b.text.startsWith(REPAIR_NOTE_PREFIX)),
  );
}
