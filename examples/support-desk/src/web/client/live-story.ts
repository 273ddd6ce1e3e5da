/**
 * The live stream (the AI SDK's messages, with `@skein/server`'s data parts) as the customer's cases,
 * folded onto the stored ones: a message the customer sends starts a case; a turn the page re-joins
 * without one (a supervisor's answer, a turn running when the page opened) goes on with the last
 * case. Only the agent that answers the customer speaks in the answer (a graph's `summary`, or its
 * `triage` when it answers itself; a swarm's last member; the one-agent desk); everything else is a
 * detail of the branch that did it. Pure.
 */
import type { DeskMessage, DeskPart } from './desk-message.js';
import {
  answerText,
  blockedText,
  callAnswer,
  callDoing,
  callDone,
  callFailed,
  callSubject,
  decisionText,
  denialNote,
  internalText,
  nestedDoing,
  problemText,
  stepWords,
} from './desk-words.js';
import { addBranch, addDetail, copyCases, decide, newCase, type StoryCase } from './story.js';

type Shape = 'graph' | 'swarm' | 'agent';
type ToolPart = Extract<DeskPart, { type: 'dynamic-tool' }>;

const who = (path: readonly string[]): string => (path.length === 0 ? 'desk' : path.join(' / '));

/** What a node at work is doing, for the progress line. */
const NODE_DOING: Record<string, string> = {
  triage: 'reading your message',
  billing: 'the billing team is looking into it',
  refund: 'the refund team is looking into it',
  notes: 'noting the case',
  summary: 'writing the answer',
};

/** True when `speaker`'s text is the desk's answer to the customer (not a step on the way). */
function answersCustomer(shape: Shape, speaker: string, text: string): boolean {
  if (shape === 'swarm') return true; // every member speaks to the customer; the last one answers
  if (shape === 'agent') return speaker === 'desk';
  return speaker === 'summary' || (speaker === 'triage' && /^ROUTE:\s*other/i.test(text));
}

/** Folds one tool part: its detail line, what waits, what a person decided, the progress. */
function foldTool(story: StoryCase, part: ToolPart, speaker: string, asked: Map<string, string>): void {
  const by = part.title ?? speaker;
  const { toolName: tool, input } = part;
  if (tool.startsWith('transfer_to_')) return addDetail(story, by, callDone(tool, input));
  const subject = callSubject(tool, input);
  switch (part.state) {
    case 'approval-requested':
    case 'approval-responded':
      asked.set(part.toolCallId, subject);
      story.waiting = `Waiting for a person on our team to approve ${subject}.`;
      return addDetail(story, by, `asked a person to approve ${subject}`);
    case 'output-available':
      if (asked.has(part.toolCallId))
        decide(story, {
          call: part.toolCallId,
          approved: true,
          text: decisionText(true, undefined, subject),
        });
      addDetail(story, by, callDone(tool, input));
      return addDetail(story, by, typeof part.output === 'string' ? (callAnswer(tool, part.output) ?? '') : '');
    case 'output-error': {
      const note = denialNote(part.errorText);
      if (note !== undefined)
        decide(story, {
          call: part.toolCallId,
          approved: false,
          text: decisionText(false, note, subject),
        });
      return addDetail(story, by, callFailed(tool, input, part.errorText));
    }
    case 'output-denied':
      decide(story, {
        call: part.toolCallId,
        approved: false,
        text: decisionText(false, undefined, subject),
      });
      return addDetail(story, by, `not approved: ${subject}`);
    default:
      story.progress = callDoing(tool, input);
      return addDetail(story, by, `${callDoing(tool, input)}…`);
  }
}

/**
 * The parts of a message the page shows: a text a guardrail retracted (`data-skein-retract`, in a
 * graph or swarm) is dropped, so what it took back is never left on the page.
 */
function shownParts(parts: readonly DeskPart[]): DeskPart[] {
  const shown: (DeskPart | undefined)[] = [];
  const lastText = new Map<string, number>();
  let speaker = '';
  for (const part of parts) {
    if (part.type === 'data-skein-speaker') speaker = part.data.path.join('/');
    if (part.type === 'data-skein-retract') {
      const at = lastText.get(part.data.path.join('/'));
      if (at !== undefined) shown[at] = undefined;
      continue;
    }
    if (part.type === 'text') lastText.set(speaker, shown.length);
    shown.push(part);
  }
  return shown.filter((p): p is DeskPart => p !== undefined);
}

/** The text part of `message` that answers the customer, if any (per `answersCustomer`; the last one wins). */
function answerPart(parts: readonly DeskPart[], shape: Shape): DeskPart | undefined {
  let speaker = 'desk';
  let answer: DeskPart | undefined;
  for (const part of parts) {
    if (part.type === 'data-skein-speaker') speaker = who(part.data.path);
    else if (part.type === 'text' && answersCustomer(shape, speaker, part.text)) answer = part;
  }
  return answer;
}

/** Folds one assistant message onto `story`, part by part, so each branch's lines come in the order they happened. */
function foldAnswer(story: StoryCase, message: DeskMessage, shape: Shape, asked: Map<string, string>): void {
  let speaker = 'desk';
  const working: string[] = [];
  // What an agent used as a tool is doing now (its tool call that is running), for the progress line.
  let nested = '';
  const parts = shownParts(message.parts);
  // A turn that stops to wait for a person has no answer yet (what was said on the way is a detail).
  const waits = parts.some((p) => p.type === 'dynamic-tool' && p.state.startsWith('approval-'));
  const answer = waits ? undefined : answerPart(parts, shape);
  // A turn that goes on (a person answered, or it is re-joined) no longer waits, unless it asks again.
  story.waiting = '';
  for (const part of parts) {
    if (part.type === 'data-skein-speaker') speaker = who(part.data.path);
    else if (part.type === 'data-skein-guardrail') story.blocked = blockedText(part.data);
    else if (part.type === 'text' && part !== answer) addDetail(story, speaker, internalText(part.text));
    else if (part.type === 'dynamic-tool') foldTool(story, part, speaker, asked);
    else if (part.type === 'data-skein-nested' && part.data.kind === 'tool') {
      const { path, tool, input, status } = part.data;
      nested = status === 'running' && tool ? nestedDoing(path, tool, input) : '';
    } else if (part.type === 'data-skein-transition') {
      const { kind, from, to, reason } = part.data;
      // Branches come in the order the case reached their node (as the stored details list them).
      if (to) addBranch(story, to);
      const line = stepWords(kind, to, reason ?? '');
      if (line && kind !== 'interrupt')
        addDetail(story, kind === 'join' || kind === 'resume' ? (to ?? 'desk') : (from ?? 'desk'), line);
    } else if (part.type === 'data-skein-node') {
      const node = who(part.data.path);
      if (part.data.status === 'running') working.push(node);
      else if (working.includes(node)) working.splice(working.lastIndexOf(node), 1);
      if (part.data.status === 'failed')
        addDetail(story, node, `failed${part.data.error ? `: ${part.data.error}` : ''}`);
    } else if (part.type === 'data-skein-turn' && part.data.resumed)
      addDetail(story, 'desk', 'the desk restarted and went on from where it was');
    // A blocked turn's line is its guardrail's.
    else if (part.type === 'data-skein-result' && !['completed', 'interrupted', 'blocked'].includes(part.data.status)) {
      story.problem = problemText(part.data.status);
      if (part.data.failureReason) addDetail(story, 'desk', `did not finish: ${part.data.failureReason}`);
    }
  }
  if (answer?.type === 'text') story.answer = answerText(answer.text);
  if (nested) story.progress = nested;
  const node = working.at(-1);
  if (!story.progress && node) story.progress = NODE_DOING[node] ?? 'working on it';
}

/** The cases of `base` (the stored conversation) with the live `messages` folded on. */
export function liveStory(base: readonly StoryCase[], messages: readonly DeskMessage[], shape: Shape): StoryCase[] {
  const cases = copyCases(base);
  const asked = new Map<string, string>();
  for (const message of messages) {
    if (message.role === 'user') {
      const text = message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
      cases.push(newCase(text));
      continue;
    }
    if (cases.length === 0) cases.push(newCase(''));
    const story = cases[cases.length - 1] as StoryCase;
    story.progress = '';
    foldAnswer(story, message, shape, asked);
  }
  return cases;
}
