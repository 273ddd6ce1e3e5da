/**
 * The stored conversation (`GET /v1/{kind}/desk/conversations/{id}`) as the customer's cases: each
 * message with the desk's answer, the approvals that waited and what the person decided (with their
 * note: a turn that answered keeps its `answers`), what still waits, and answers that did not finish.
 * The details of each case come from the desk (`details`, by case), as stored.
 */
import { answerText, callSubject, decisionText, problemText } from './desk-words.js';
import { newCase, type DetailBranch, type StoryCase } from './story.js';

/** An interrupt as the server lists it. */
interface ViewInterrupt {
  id: string;
  name: string;
  /** Who asks (the agent, or the node's path). */
  source?: string;
  toolUse?: { toolUseId?: string; name: string; input: unknown };
}

/** The parts of the server's conversation view the pages read. */
export interface ConversationView {
  status: string;
  turns: {
    turn: number;
    status: string;
    prompt?: string;
    text?: string;
    interrupts?: ViewInterrupt[];
    answers?: Record<string, unknown>;
  }[];
  interrupts: ViewInterrupt[];
}

const ANSWERS = /^\(answers: /;

/** `Waiting for a person on our team to approve a refund of 60 EUR for order 108.` */
function waitingText(interrupt: ViewInterrupt): string {
  return interrupt.toolUse
    ? `Waiting for a person on our team to approve ${callSubject(interrupt.toolUse.name, interrupt.toolUse.input)}.`
    : 'Waiting for a person on our team to answer.';
}

function answerOf(response: unknown): { approved: boolean; note: string | undefined } {
  if (response === true) return { approved: true, note: undefined };
  const r = typeof response === 'object' && response !== null ? (response as Record<string, unknown>) : {};
  return { approved: r['approved'] === true, note: typeof r['message'] === 'string' ? r['message'] : undefined };
}

/** The cases of a stored conversation; `details[i]` are case `i`'s details, when known. */
export function storyFromView(view: ConversationView, details: readonly DetailBranch[][] = []): StoryCase[] {
  const cases: StoryCase[] = [];
  let asked: ViewInterrupt[] = [];
  for (const turn of view.turns) {
    const answering = turn.answers !== undefined || ANSWERS.test(turn.prompt ?? '');
    if (!answering || cases.length === 0) {
      cases.push(newCase(answering ? '' : (turn.prompt ?? '')));
      asked = [];
    }
    const story = cases[cases.length - 1] as StoryCase;
    for (const [id, response] of Object.entries(turn.answers ?? {})) {
      const interrupt = asked.find((i) => i.id === id);
      const { approved, note } = answerOf(response);
      const subject = interrupt?.toolUse
        ? callSubject(interrupt.toolUse.name, interrupt.toolUse.input)
        : 'your request';
      story.decisions.push({
        call: interrupt?.toolUse?.toolUseId ?? id,
        approved,
        text: decisionText(approved, note, subject),
      });
    }
    if (turn.status === 'completed') story.answer = answerText(turn.text ?? '');
    else if (turn.status === 'interrupted') asked = turn.interrupts ?? [];
    else if (turn.status !== 'running') story.problem = problemText(turn.status);
  }
  const last = cases.at(-1);
  if (last && view.status === 'interrupted') last.waiting = view.interrupts.map(waitingText).join(' ');
  details.forEach((branches, i) => {
    if (cases[i]) cases[i].details = branches.map((b) => ({ who: b.who, lines: [...b.lines] }));
  });
  return cases;
}
