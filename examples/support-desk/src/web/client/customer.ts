/**
 * The customer page: the AI SDK's chat client (`desk-chat.ts`) over `@skein/server`'s UI message
 * stream. A message is `POST .../ui`; after a dropped connection or a server restart the page re-joins
 * the turn by itself (`GET .../stream?format=ui`, which resumes a turn the restart cut and replays it
 * from its start); when the supervisor answers a refund, the desk's notice stream says so and the page
 * re-joins that turn at once. A turn that already ended shows from the stored conversation.
 */
import './zod-jitless.js';
import { createDeskChat, transient, type DeskChat } from './desk-chat.js';
import { waitsForPerson, working } from './describe-part.js';
import { historyMessages, type ConversationView } from './history.js';
import { renderLog } from './render-log.js';
import { byId, problemText, showBudget, showConversations, type ConversationEntry } from './customer-view.js';

const { kind = 'graphs', shape = 'graph' } = document.body.dataset;
const base = `/v1/${kind}/desk/conversations`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The conversation in the address (`?c=`), else the newest, else a new one; and whether it has turns. */
async function pickConversation(): Promise<{ id: string; known: boolean }> {
  const url = new URL(location.href);
  const listed = (await (await fetch(`${base}?limit=50`)).json()) as { conversations: ConversationEntry[] };
  const list = [...listed.conversations].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const id = url.searchParams.get('c') ?? list[0]?.id ?? `${shape}-${crypto.randomUUID()}`;
  if (url.searchParams.get('c') !== id) {
    url.searchParams.set('c', id);
    history.replaceState(null, '', url);
  }
  showConversations(list, id);
  return { id, known: list.some((c) => c.id === id) };
}

/** What the status line says. */
function statusText(reconnecting: boolean, busy: boolean, waiting: boolean, who: readonly string[]): string {
  if (reconnecting) return 'Connection lost; reconnecting…';
  if (busy) return `The desk is answering…${who.length > 0 ? ` (working: ${who.join(', ')})` : ''}`;
  if (waiting) return 'Waiting for a person to approve. This page goes on by itself when they answer.';
  return '';
}

/** One conversation on the page: the chat, its rendering, re-joins and reconnects. */
class CustomerPage {
  readonly #api: string;
  readonly #chat: DeskChat;
  #reconnecting = false;
  #scheduled = false;
  #listed: boolean;

  constructor(
    readonly id: string,
    known: boolean,
  ) {
    this.#api = `${base}/${encodeURIComponent(id)}`;
    this.#listed = known;
    this.#chat = createDeskChat(id, this.#api, () => this.changed(), {
      // A dropped connection reconnects by itself (onFinish); anything else is said (a turn already running: 409).
      onError: (error) => {
        if (!this.#reconnecting && !(error instanceof TypeError)) byId('alert').textContent = problemText(error);
      },
      onFinish: ({ isDisconnect, isError }) => {
        if (isDisconnect) void this.reconnect();
        else if (!isError) void this.afterTurn();
      },
    });
  }

  changed(): void {
    if (!this.#scheduled) queueMicrotask(() => this.#render());
    this.#scheduled = true;
  }

  #render(): void {
    this.#scheduled = false;
    const { messages, status } = this.#chat;
    renderLog(byId('log'), messages);
    const busy = status === 'submitted' || status === 'streaming';
    const waiting = !busy && waitsForPerson(messages);
    byId('status').textContent = statusText(this.#reconnecting, busy, waiting, working(messages));
    byId<HTMLButtonElement>('send').disabled = busy || waiting || this.#reconnecting;
  }

  send(text: string): void {
    byId('alert').textContent = '';
    void this.#chat.sendMessage({ text });
  }

  /** Shows the stored conversation; resolves with its status. */
  async loadHistory(): Promise<string> {
    const view = (await (await fetch(this.#api)).json()) as ConversationView;
    this.#chat.messages = historyMessages(view);
    return view.status;
  }

  /** Re-joins the running turn (or `turn`, also when it ended); when none runs, shows the stored conversation instead. */
  async rejoin(turn?: number): Promise<void> {
    this.#chat.rejoinStatus = 0;
    this.#chat.rejoinTurn = turn;
    try {
      await this.#chat.resumeStream();
    } finally {
      this.#chat.rejoinTurn = undefined;
    }
    if (this.#chat.status === 'ready' && this.#chat.rejoinStatus === 204) await this.loadHistory();
  }

  /** A turn the supervisor's answer started: re-join it unless the page is busy. */
  onTurnNotice(turn: number): void {
    if (this.#chat.status === 'ready' && !this.#reconnecting) void this.rejoin(turn);
  }

  async reconnect(): Promise<void> {
    if (this.#reconnecting) return;
    this.#reconnecting = true;
    this.changed();
    for (let delay = 250; ; delay = Math.min(delay * 2, 2000)) {
      await sleep(delay);
      await this.rejoin().catch(() => undefined);
      if (this.#chat.status !== 'error' || !transient(this.#chat.error)) break;
    }
    this.#reconnecting = false;
    this.changed();
    await this.afterTurn();
  }

  async afterTurn(): Promise<void> {
    await showBudget(this.id);
    // A new conversation joins the list after its first turn.
    if (!this.#listed) this.#listed = (await pickConversation()).known;
  }
}

async function main(): Promise<void> {
  const { id, known } = await pickConversation();
  const page = new CustomerPage(id, known);
  const input = byId<HTMLInputElement>('message');
  byId('composer').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || byId<HTMLButtonElement>('send').disabled) return;
    input.value = '';
    page.send(text);
  });
  byId('new-conversation').addEventListener('click', () => {
    location.assign(`?c=${encodeURIComponent(`${shape}-${crypto.randomUUID()}`)}`);
  });
  const notices = new EventSource(`/desk/api/conversations/${encodeURIComponent(id)}/notices`);
  notices.addEventListener('turn', (event) => page.onTurnNotice((JSON.parse(event.data) as { turn: number }).turn));
  page.changed();
  if (known && (await page.loadHistory()) === 'running') await page.rejoin();
  // The send button stays disabled (no form submission) until here.
  document.body.dataset['ready'] = 'true';
  await showBudget(id);
}

main().catch((error: unknown) => {
  byId('alert').textContent =
    `The page could not start: ${error instanceof Error ? error.message : String(error)}. Reload it.`;
});
