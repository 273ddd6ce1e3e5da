/**
 * The customer's chat client: the `ai` package's `AbstractChat` with `DefaultChatTransport` on one
 * conversation of `@skein/server` (`POST .../ui` to send, `GET .../stream?format=ui` to re-join), as
 * a user of the AI SDK writes it; only the status of the last re-join is watched, to tell "nothing to
 * re-join" (204) from a turn that streamed. A re-join of a known turn names it (`lastEventId=<turn>.0.0`):
 * the server replays it whole in the UI format, running or ended less than `replayRetentionMs` ago.
 */
import { AbstractChat, DefaultChatTransport, type ChatInit } from 'ai';
import { ObservableChatState } from './chat-state.js';
import type { DeskMessage } from './desk-message.js';

/** A chat of the desk's messages (the AI SDK's `Chat` without a UI framework). */
export class DeskChat extends AbstractChat<DeskMessage> {
  /** The HTTP status of the last re-join; 204 when no turn ran. */
  rejoinStatus = 0;
  /** The next re-join asks for this turn (`<turn>.0.0`: the whole turn, also for a while after it ended). */
  rejoinTurn: number | undefined;
}

/** True when a network fault (or a server that is starting or stopping) is the reason: worth trying again. */
export function transient(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  const status = (error as { statusCode?: unknown } | undefined)?.statusCode;
  return status === 409 || status === 429 || status === 502 || status === 503 || status === 504;
}

/** The chat of conversation `api` (`/v1/{kind}/desk/conversations/{id}`); `changed` runs on every change of its state. */
export function createDeskChat(
  id: string,
  api: string,
  changed: () => void,
  callbacks: Pick<ChatInit<DeskMessage>, 'onError' | 'onFinish'>,
): DeskChat {
  let chat: DeskChat | undefined;
  const observedFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (chat && init?.method !== 'POST') chat.rejoinStatus = response.status;
    return response;
  };
  chat = new DeskChat({
    id,
    state: new ObservableChatState<DeskMessage>(changed),
    transport: new DefaultChatTransport<DeskMessage>({
      api: `${api}/ui`,
      fetch: observedFetch,
      // The server keeps the conversation: only the new message goes.
      prepareSendMessagesRequest: ({ messages }) => ({ body: { messages: messages.slice(-1) } }),
      prepareReconnectToStreamRequest: () => ({
        api: `${api}/stream?format=ui${chat?.rejoinTurn ? `&lastEventId=${chat.rejoinTurn}.0.0` : ''}`,
      }),
    }),
    ...callbacks,
  });
  return chat;
}
