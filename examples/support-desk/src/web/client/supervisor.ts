/**
 * The supervisor page: what waits for a person across every conversation (the desk's
 * `/desk/api/waiting`, read again every second), approve or deny it (`POST .../answers` on
 * `@skein/server`, acting for the customer), and every conversation with its inspector page. Items
 * are kept in place between reads, so focus and what is typed survive a refresh.
 */
import { describeCall } from './describe-part.js';

interface WaitingItem {
  conversationId: string;
  customer: string;
  interruptId: string;
  name: string;
  tool?: string;
  input?: unknown;
  source: string;
  turns: { prompt: string; text: string; status: string }[];
  answers: string;
  inspect: string;
}

interface ConversationRow {
  id: string;
  customer: string;
  createdAt: string;
  status: string;
  inspect: string;
}

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
  const what = item.tool ? describeCall(item.tool, item.input) : `an answer (${item.name})`;
  return `${what[0]?.toUpperCase() ?? ''}${what.slice(1)}`;
}

async function answer(item: WaitingItem, approved: boolean, note: string): Promise<void> {
  const response = await fetch(item.answers, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-desk-customer': item.customer },
    body: JSON.stringify({
      answers: { [item.interruptId]: note ? { approved, message: note } : { approved } },
    }),
  });
  if (!response.ok) {
    const problem = (await response.json().catch(() => ({}))) as { detail?: string };
    byId('alert').textContent = problem.detail ?? `The answer was not taken (HTTP ${response.status}).`;
    return;
  }
  // The turn goes on without us: the customer's page shows it.
  await response.body?.cancel();
  byId('waiting-status').textContent = `${approved ? 'Approved' : 'Denied'}: ${title(item)} for ${item.customer}.`;
  byId('waiting')
    .querySelector(`[data-key="${CSS.escape(keyOf(item))}"]`)
    ?.remove();
}

function waitingElement(item: WaitingItem): HTMLLIElement {
  const n = ++serial;
  const li = element('li', undefined, 'item');
  li.dataset['key'] = keyOf(item);
  const heading = element('h3', title(item));
  heading.id = `waiting-${n}`;
  const who = element('p');
  who.append(`Customer ${item.customer}, asked by ${item.source}, in `, link(item.inspect, item.conversationId));
  const transcript = element('ol', undefined, 'transcript');
  for (const turn of item.turns) {
    if (turn.prompt && !turn.prompt.startsWith('(answers:'))
      transcript.append(element('li', `${item.customer}: ${turn.prompt}`));
    if (turn.text) transcript.append(element('li', `desk: ${turn.text}`));
  }
  const label = element('label', 'Note to the customer (optional)');
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
  li.append(heading, who, transcript, label, note, buttons);
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
      conversation.append(link(c.inspect, c.id));
      row.append(
        element('td', c.customer),
        conversation,
        element('td'),
        element('td', new Date(c.createdAt).toLocaleString()),
      );
    }
    const status = row.cells[2] as HTMLTableCellElement;
    if (status.textContent !== c.status) status.textContent = c.status;
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
