/**
 * The customer page: the AI SDK's chat client (`desk-chat.ts`) over `@skein/server`'s UI message
 * stream, shown as the customer lives the conversation (`story.ts`). What is stored is the page's
 * ground: the stored conversation and each case's details (`stored-story.ts`); the live stream of the
 * turn at work is folded onto it (`live-story.ts`), and when a turn ends the page reads the stored
 * conversation again, so a page opened again shows the same. A message is `POST .../ui`; after a
 * dropped connection or a server restart the page re-joins the turn by itself (`GET
 * .../stream?format=ui`); when the supervisor answers, the desk's notice stream says so and the page
 * re-joins that turn at once.
 */
import './zod-jitless.js';
import { createDeskChat, transient, type DeskChat } from './desk-chat.js';
import { byId, problemText, showBudget, showConversations, type ConversationEntry } from './customer-view.js';
import { liveStory } from './live-story.js';
import { renderStory } from './render-story.js';
import { storyFromView, type ConversationView } from './stored-story.js';
import type { DetailBranch, StoryCase } from './story.js';

const { kind = 'graphs', shape = 'graph' } = document.body.dataset;
const base = `/v1/${kind}/desk/conversations`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const HINT =
  'Ask about a charge, an invoice or a refund, and name the order: for example "I was charged twice for order 42" or "Please refund order 7".';

/** The conversation in the address (`?c=`), else the newest, else a new one; and the list of the customer's. */
async function pickConversation(): Promise<{ id: string; list: ConversationEntry[] }> {
  const url = new URL(location.href);
  const listed = (await (await fetch(`${base}?limit=50`)).json()) as { conversations: ConversationEntry[] };
  const list = [...listed.conversations].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const id = url.searchParams.get('c') ?? list[0]?.id ?? `${shape}-${crypto.randomUUID()}`;
  if (url.searchParams.get('c') !== id) {
    url.searchParams.set('c', id);
    history.replaceState(null, '', url);
  }
  return { id, list };
}

/** What the status line says (the progress line while the desk works). */
function statusText(reconnecting: boolean, busy: boolean, waiting: boolean, progress: string): string {
  if (reconnecting) return 'Connection lost; reconnecting…';
  if (busy) return `The desk is working on it${progress ? `: ${progress}…` : '…'}`;
  if (waiting) return 'A person on our team is looking at it. This page goes on by itself when they answer.';
  return '';
}

/** One conversation on the page: the stored cases, the live turn folded on, re-joins and reconnects. */
class CustomerPage {
  readonly #api: string;
  readonly #chat: DeskChat;
  #stored: StoryCase[] = [];
  #cases: StoryCase[] = [];
  #reconnecting = false;
  #loading = false;
  /** Re-joining a turn a notice named: read the stored conversation, then the turn's stream. */
  #joining = false;
  #scheduled = false;

  constructor(
    readonly id: string,
    private list: ConversationEntry[],
  ) {
    this.#api = `${base}/${encodeURIComponent(id)}`;
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
    showConversations(list, id);
  }

  get busy(): boolean {
    return this.#chat.status === 'submitted' || this.#chat.status === 'streaming';
  }

  get waiting(): boolean {
    return !this.busy && (this.#cases.at(-1)?.waiting ?? '') !== '';
  }

  changed(): void {
    if (!this.#scheduled) queueMicrotask(() => this.#render());
    this.#scheduled = true;
  }

  #render(): void {
    this.#scheduled = false;
    this.#cases = liveStory(this.#stored, this.#chat.messages, shape as 'graph' | 'swarm' | 'agent');
    renderStory(byId('log'), this.#cases, HINT);
    const progress = this.#cases.at(-1)?.progress ?? '';
    byId('status').textContent = statusText(this.#reconnecting, this.busy, this.waiting, progress);
    // Not `disabled`: Enter still submits, and the page says why the message cannot go yet.
    byId('send').setAttribute('aria-disabled', String(this.busy || this.waiting || this.#reconnecting));
    // Nothing is on its way (for tests and tools): the page shows the stored conversation.
    document.body.dataset['settled'] = String(!this.busy && !this.#reconnecting && !this.#loading && !this.#joining);
  }

  /** Why a message cannot go now ('' when it can). */
  refusal(): string {
    if (this.#reconnecting) return 'The desk is not reachable right now; your message can go once it is back.';
    if (this.busy) return 'The desk is still answering; send your next message when it is done.';
    if (this.waiting) return 'A person on our team is looking at your request; you can write again once they answered.';
    return '';
  }

  send(text: string): void {
    byId('alert').textContent = '';
    // A new conversation is listed at once, under its first message.
    if (!this.list.some((c) => c.id === this.id)) {
      this.list = [{ id: this.id, createdAt: new Date().toISOString(), title: text.slice(0, 80) }, ...this.list];
      showConversations(this.list, this.id);
    }
    void this.#chat.sendMessage({ text });
  }

  /** Reads the stored conversation and its details: the page's ground from now on (the live turn is part of it). */
  async loadStored(): Promise<string> {
    this.#loading = true;
    this.changed();
    try {
      const [view, details] = await Promise.all([
        fetch(this.#api).then((r) => r.json() as Promise<ConversationView>),
        fetch(`/desk/api/conversations/${encodeURIComponent(this.id)}/details?kind=${kind}`)
          .then((r) => (r.ok ? (r.json() as Promise<{ cases: DetailBranch[][] }>) : { cases: [] }))
          .catch(() => ({ cases: [] })),
      ]);
      this.#stored = storyFromView(view, details.cases);
      this.#chat.messages = [];
      return view.status;
    } finally {
      this.#loading = false;
      this.changed();
    }
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
    if (this.#chat.status === 'ready' && this.#chat.rejoinStatus === 204) await this.loadStored();
  }

  /** A turn the supervisor's answer started: the decision is stored with it; re-join it unless the page is busy. */
  async onTurnNotice(turn: number): Promise<void> {
    if (this.#chat.status !== 'ready' || this.#reconnecting) return;
    this.#joining = true;
    try {
      await this.loadStored();
      await this.rejoin(turn);
    } finally {
      this.#joining = false;
      this.changed();
    }
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
    await this.loadStored();
    await showBudget(this.id);
  }
}

async function main(): Promise<void> {
  const { id, list } = await pickConversation();
  const page = new CustomerPage(id, list);
  const input = byId<HTMLInputElement>('message');
  byId('composer').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    const refusal = page.refusal();
    if (refusal) byId('alert').textContent = refusal;
    if (!text || refusal) return;
    input.value = '';
    page.send(text);
  });
  byId('new-conversation').addEventListener('click', () => {
    location.assign(`?c=${encodeURIComponent(`${shape}-${crypto.randomUUID()}`)}`);
  });
  const notices = new EventSource(`/desk/api/conversations/${encodeURIComponent(id)}/notices`);
  notices.addEventListener('turn', (event) => {
    void page.onTurnNotice((JSON.parse(event.data) as { turn: number }).turn);
  });
  page.changed();
  if (list.some((c) => c.id === id) && (await page.loadStored()) === 'running') await page.rejoin();
  page.changed();
  // The send button is disabled (no form submission) until here.
  byId<HTMLButtonElement>('send').disabled = false;
  document.body.dataset['ready'] = 'true';
  input.focus();
  await showBudget(id);
}

main().catch((error: unknown) => {
  byId('alert').textContent =
    `The page could not start: ${error instanceof Error ? error.message : String(error)}. Reload it.`;
});
