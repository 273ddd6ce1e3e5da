/** A `Chat` from the `ai` package (its `AbstractChat` on a plain state) talking to the server through `app.fetch`. */
import { AbstractChat, DefaultChatTransport, type ChatInit, type ChatState, type ChatStatus, type UIMessage } from 'ai';
import type { SkeinServer } from '../index.js';

class PlainState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: UIMessage[] = [];
  pushMessage = (message: UIMessage): void => {
    this.messages = [...this.messages, message];
  };
  popMessage = (): void => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage): void => {
    this.messages = this.messages.map((m, i) => (i === index ? message : m));
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** A chat as a page would have it, its transport pointed at `api` on `app`. */
export class TestChat extends AbstractChat<UIMessage> {
  constructor(
    app: SkeinServer,
    api: string,
    init: Omit<ChatInit<UIMessage>, 'transport'> & { headers?: Record<string, string> } = {},
  ) {
    const { headers, ...rest } = init;
    super({
      ...rest,
      state: new PlainState(),
      transport: new DefaultChatTransport({
        api: `http://localhost${api}`,
        ...(headers ? { headers } : {}),
        fetch: (input, requestInit) => Promise.resolve(app.fetch(new Request(input as string, requestInit))),
        prepareReconnectToStreamRequest: () => ({
          api: `http://localhost${api.replace(/\/ui$/, '/stream?format=ui')}`,
        }),
      }),
    });
  }
}
