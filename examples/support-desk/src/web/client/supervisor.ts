/**
 * The supervisor page: what waits for a person across every conversation (the desk's
 * `/desk/api/waiting`, read again every second) with the customer, the order (what was bought, paid
 * and refunded) and the conversation as the customer sees it; approve or deny with a note that the
 * customer reads with the decision (`POST .../answers` on `@skein/server`, acting for the customer);
 * and every conversation, named by its first message, with its inspector page. Items are kept in
 * place between reads, so focus and what is typed survive a refresh.
 */
import { askedBy, callSubject } from './desk-words.js';
import { storyFromView, type ConversationView } from './stored-story.js';

interface WaitingItem {
  conversationId: string;
  customer: string;
  title: string;
  interruptId: string;
  name: string;
  tool?: string;
  input?: unknown;
  source: string;
  order?: {
    id: string;
    item: string;
    paidEur: number;
    refundedEur: number;
    buyer?: { id: string; name: string };
  };
  view: ConversationView;
  answers: string;
  inspect: string;
}

interface ConversationRow {
  id: string;
  customer: string;
  title: string;
  createdAt: string;
  status: string;
  inspect: string;
}

/** A conversation's status in words. */
const STATUS: Record<string, string> = {
  interrupted: 'waiting for a person',
  completed: 'answered',
  running: 'answering',
  failed: 'could not finish',
  budgetExceeded: 'out of budget',
  cancelled: 'stopped',
  stopped: 'stopped',
  new: 'new',
};

const byId = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
const keyOf = (item: WaitingItem): string => `${item.conversationId} ${item.interruptId}`;
let serial = 0;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

function link(href: string, text: string): HTMLAnchorElement {
  const made = element('a', text);
  made.href = href;
  return made;
}

function title(item: WaitingItem): string {
  const what = item.tool ? callSubject(item.tool, item.input) : `an answer (${item.name})`;
  return `${what[0]?.toUpperCase() ?? ''}${what.slice(1)}`;
}

/** The facts to decide on: who asks, the order, what is asked and why. */
function facts(item: WaitingItem): HTMLDListElement {
  const list = element('dl', undefined, 'facts');
  const add = (term: string, value: string): void => {
    list.append(element('dt', term), element('dd', value));
  };
  const buyer = item.order?.buyer;
  add(
    'Customer',
    `${item.customer} (signed in)${buyer ? `; the order is ${buyer.name}'s (shop customer ${buyer.id})` : ''}`,
  );
  if (item.order) {
    const { id, item: bought, paidEur, refundedEur } = item.order;
    add(
      'Order',
      `${id}: ${bought}, paid ${paidEur} EUR, ${
        refundedEur > 0 ? `${refundedEur} EUR refunded so far` : 'nothing refunded yet'
      }`,
    );
  }
  const reason =
    typeof item.input === 'object' && item.input !== null ? (item.input as { reason?: unknown }).reason : undefined;
  add('Asked', `${title(item)}${typeof reason === 'string' ? `, because: "${reason}"` : ''}`);
  add('Asked by', askedBy(item.source));
  return list;
}

/** The conversation as the customer sees it (their messages, the answers, what waits). */
function asCustomerSees(item: WaitingItem): HTMLElement {
  const box = element('details', undefined, 'transcript');
  box.open = true;
  box.append(element('summary', 'The conversation as the customer sees it'));
  const list = element('ol');
  for (const story of storyFromView(item.view)) {
    if (story.message) list.append(element('li', `${item.customer}: ${story.message}`, 'said'));
    for (const decision of story.decisions) list.append(element('li', `desk: ${decision.text}`));
    if (story.answer) list.append(element('li', `desk: ${story.answer}`));
    if (story.waiting) list.append(element('li', `desk: ${story.waiting}`, 'waits'));
    if (story.problem) list.append(element('li', `desk: ${story.problem}`));
  }
  box.append(list);
  return box;
}

async function answer(item: WaitingItem, approved: boolean, note: string): Promise<void> {
  const response = await fetch(item.answers, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'x-desk-customer': item.customer,
    },
    body: JSON.stringify({
      answers: {
        [item.interruptId]: note ? { approved, message: note } : { approved },
      },
    }),
  });
  if (!response.ok) {
    const problem = (await response.json().catch(() => ({}))) as {
      detail?: string;
    };
    byId('alert').textContent = problem.detail ?? `The answer was not taken (HTTP ${response.status}).`;
    return;
  }
  // The turn goes on without us: the customer's page shows it.
  await response.body?.cancel();
  byId('waiting-status').textContent = `${
    approved ? 'Approved' : 'Denied'
  }: ${title(item)} for ${item.customer}${note ? `, with your note` : ''}.`;
  byId('waiting')
    .querySelector(`[data-key="${CSS.escape(keyOf(item))}"]`)
    ?.remove();
}

function waitingElement(item: WaitingItem): HTMLLIElement {
  const n = ++serial;
  const li = element('li', undefined, 'item');
  li.dataset['key'] = keyOf(item);
  const heading = element('h3', `${title(item)}, for ${item.customer}`);
  heading.id = `waiting-${n}`;
  const label = element('label', 'Note to the customer (they read it with your decision)');
  label.htmlFor = `note-${n}`;
  const note = element('input');
  note.id = `note-${n}`;
  note.autocomplete = 'off';
  const buttons = element('div', undefined, 'row');
  for (const approved of [true, false]) {
    const button = element('button', approved ? 'Approve' : 'Deny');
    button.type = 'button';
    button.dataset['answer'] = approved ? 'approve' : 'deny';
    button.setAttribute('aria-describedby', heading.id);
    button.addEventListener('click', () => {
      for (const b of buttons.querySelectorAll('button')) b.disabled = true;
      void answer(item, approved, note.value.trim()).finally(() => {
        for (const b of buttons.querySelectorAll('button')) b.disabled = false;
      });
    });
    buttons.append(button);
  }
  const more = element('p', undefined, 'inspect');
  more.append(link(item.inspect, 'What the agents did (inspector)'));
  li.append(heading, facts(item), asCustomerSees(item), label, note, buttons, more);
  return li;
}

function showWaiting(items: readonly WaitingItem[]): void {
  const list = byId('waiting');
  const shown = new Map<string, Element>();
  for (const child of Array.from(list.children) as HTMLElement[]) shown.set(child.dataset['key'] ?? '', child);
  for (const item of items) {
    if (!shown.delete(keyOf(item))) list.append(waitingElement(item));
  }
  for (const gone of shown.values()) gone.remove();
  byId('waiting-status').dataset['count'] = String(items.length);
  if (items.length === 0 && !byId('waiting-status').textContent) byId('waiting-status').textContent = 'Nothing waits.';
}

function showConversations(rows: readonly ConversationRow[]): void {
  const body = byId('conversations').querySelector('tbody') as HTMLTableSectionElement;
  const shown = new Map<string, HTMLTableRowElement>();
  for (const row of Array.from(body.rows)) shown.set(row.dataset['id'] ?? '', row);
  rows.forEach((c, i) => {
    let row = shown.get(c.id);
    if (!row) {
      row = element('tr');
      row.dataset['id'] = c.id;
      const conversation = element('td');
      conversation.dataset['label'] = 'Conversation';
      conversation.append(link(c.inspect, c.title || 'New conversation'));
      const cells = [
        element('td', c.customer),
        conversation,
        element('td'),
        element('td', new Date(c.createdAt).toLocaleString()),
      ];
      ['Customer', 'Conversation', 'Status', 'Started'].forEach((label, j) =>
        (cells[j] as HTMLElement).setAttribute('data-label', label),
      );
      row.append(...cells);
    }
    const status = row.cells[2] as HTMLTableCellElement;
    const words = STATUS[c.status] ?? c.status;
    if (status.textContent !== words) status.textContent = words;
    const anchor = row.cells[1]?.querySelector('a');
    if (anchor && c.title && anchor.textContent !== c.title) anchor.textContent = c.title;
    if (body.rows[i] !== row) body.insertBefore(row, body.rows[i] ?? null);
  });
  for (const row of Array.from(body.rows).slice(rows.length)) row.remove();
}

let reading = false;
async function refresh(): Promise<void> {
  if (reading) return;
  reading = true;
  try {
    const response = await fetch('/desk/api/waiting');
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const { waiting, conversations } = (await response.json()) as {
      waiting: WaitingItem[];
      conversations: ConversationRow[];
    };
    showWaiting(waiting);
    showConversations(conversations);
    if (byId('alert').dataset['offline']) {
      byId('alert').textContent = '';
      delete byId('alert').dataset['offline'];
    }
  } catch {
    byId('alert').textContent = 'The desk is not reachable; trying again.';
    byId('alert').dataset['offline'] = 'true';
  } finally {
    reading = false;
  }
}

void refresh();
setInterval(() => void refresh(), 1000);
