/** What waits for a person, answered in place: approve or deny each interrupt, with a note. */
import { el } from './dom.js';

/** An interrupt as the server lists it. */
export interface Waiting {
  id: string;
  name: string;
  reason: unknown;
  toolUse?: { name: string; input: unknown };
}

/** The form for `interrupts`; `answer` gets `{ [id]: { approved, message? } }`. */
export function approvalsForm(
  interrupts: readonly Waiting[],
  answer: (answers: Record<string, { approved: boolean; message?: string }>) => void,
): HTMLElement {
  const notes = new Map<string, HTMLTextAreaElement>();
  const items = interrupts.map((interrupt, i) => {
    const what = interrupt.toolUse
      ? `${interrupt.toolUse.name} ${JSON.stringify(interrupt.toolUse.input)}`
      : `${interrupt.name}: ${JSON.stringify(interrupt.reason)}`;
    const note = el('textarea', { id: `note-${i}`, rows: '2' });
    notes.set(interrupt.id, note);
    return el('li', {}, el('p', {}, `Waits for approval: ${what}`), el('label', { for: `note-${i}` }, 'Note'), note);
  });
  const decide = (approved: boolean) => () => {
    const answers: Record<string, { approved: boolean; message?: string }> = {};
    for (const interrupt of interrupts) {
      const message = notes.get(interrupt.id)?.value.trim();
      answers[interrupt.id] = { approved, ...(message ? { message } : {}) };
    }
    answer(answers);
  };
  const approve = el('button', { type: 'button', id: 'approve' }, 'Approve');
  const deny = el('button', { type: 'button', id: 'deny' }, 'Deny');
  approve.addEventListener('click', decide(true));
  deny.addEventListener('click', decide(false));
  return el(
    'section',
    { 'aria-labelledby': 'approvals-title', class: 'panel approvals' },
    el('h2', { id: 'approvals-title' }, 'Waiting for you'),
    el('ul', {}, ...items),
    approve,
    deny,
  );
}
