/**
 * The customer page: the `ai` package's chat client (`AbstractChat` + `DefaultChatTransport`) over
 * `@skein/server`'s UI message stream. A message is `POST .../ui`; after a dropped connection or a
 * server restart the page re-joins the turn by itself (`GET .../stream?format=ui`, which resumes a
 * turn the restart cut and replays it from its start); when the supervisor answers a refund, the
 * desk's notice stream says so and the page re-joins that turn at once.
 */
import { AbstractChat, DefaultChatTransport } from 'ai';
import { ObservableChatState } from './chat-state.js';
import { waitsForPerson } from './describe-part.js';
import type { DeskMessage } from './desk-message.js';
import { historyMessages, type ConversationView } from './history.js';
import { renderLog } from './render-log.js';
import { byId, problemText, showBudget, showConversations, type ConversationEntry } from './customer-view.js';

class DeskChat extends AbstractChat<DeskMessage> {}

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

/** True when a network fault (or a server that is starting or stopping) is the reason: worth trying again. */
function transient(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  const status = (error as { statusCode?: unknown } | undefined)?.statusCode;
  return status === 409 || status === 429 || status === 502 || status === 503 || status === 504;
}

async function main(): Promise<void> {
  const { id, known } = await pickConversation();
  const api = `${base}/${encodeURIComponent(id)}`;
  const log = byId('log');
  const input = byId<HTMLInputElement>('message');
  let reconnecting = false;
  let scheduled = false;
  const render = (): void => {
    scheduled = false;
    renderLog(log, chat.messages);
    const busy = chat.status === 'submitted' || chat.status === 'streaming';
    const waiting = !busy && waitsForPerson(chat.messages);
    byId('status').textContent = reconnecting
      ? 'Connection lost; reconnecting…'
      : busy
        ? 'The desk is answering…'
        : waiting
          ? 'Waiting for a person to approve. This page goes on by itself when they answer.'
          : '';
    byId<HTMLButtonElement>('send').disabled = busy || waiting || reconnecting;
  };
  const changed = (): void => {
    if (!scheduled) queueMicrotask(render);
    scheduled = true;
  };
  const chat: DeskChat = new DeskChat({
    id,
    state: new ObservableChatState<DeskMessage>(changed),
    transport: new DefaultChatTransport<DeskMessage>({
      api: `${api}/ui`,
      // The server keeps the conversation: only the new message goes.
      prepareSendMessagesRequest: ({ messages }) => ({ body: { messages: messages.slice(-1) } }),
      prepareReconnectToStreamRequest: () => ({ api: `${api}/stream?format=ui` }),
    }),
    onError: (error) => {
      if (!reconnecting && !transient(error)) byId('alert').textContent = problemText(error);
    },
    onFinish: ({ isDisconnect, isError }) => {
      if (isDisconnect) void reconnect();
      else if (!isError) void afterTurn();
    },
  });

  const afterTurn = async (): Promise<void> => {
    await showBudget(id);
    if (!known) await pickConversation();
  };
  const loadHistory = async (): Promise<string> => {
    const view = (await (await fetch(api)).json()) as ConversationView;
    chat.messages = historyMessages(view);
    return view.status;
  };
  /** Re-joins the running turn; when it already ended, shows the stored conversation instead. */
  const rejoin = async (): Promise<void> => {
    const before = chat.messages.length;
    await chat.resumeStream();
    if (chat.status === 'ready' && chat.messages.length === before) await loadHistory();
  };
  const reconnect = async (): Promise<void> => {
    if (reconnecting) return;
    reconnecting = true;
    changed();
    for (let delay = 250; ; delay = Math.min(delay * 2, 2000)) {
      await sleep(delay);
      await rejoin().catch(() => undefined);
      if (chat.status !== 'error' || !transient(chat.error)) break;
    }
    reconnecting = false;
    changed();
    await afterTurn();
  };

  byId('composer').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || byId<HTMLButtonElement>('send').disabled) return;
    input.value = '';
    byId('alert').textContent = '';
    void chat.sendMessage({ text });
  });
  byId('new-conversation').addEventListener('click', () => {
    location.assign(`?c=${encodeURIComponent(`${shape}-${crypto.randomUUID()}`)}`);
  });
  new EventSource(`/desk/api/conversations/${encodeURIComponent(id)}/notices`).addEventListener('turn', () => {
    if (chat.status === 'ready' && !reconnecting) void rejoin();
  });
  changed();
  if (known && (await loadHistory()) === 'running') await rejoin();
  await showBudget(id);
}

void main();
