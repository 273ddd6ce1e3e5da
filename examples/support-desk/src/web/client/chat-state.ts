/** The chat's state for the `ai` package's `AbstractChat`: plain fields that call `changed` whenever they change. */
import type { ChatState, ChatStatus, UIMessage } from 'ai';

export class ObservableChatState<M extends UIMessage> implements ChatState<M> {
  #status: ChatStatus = 'ready';
  #error: Error | undefined = undefined;
  #messages: M[] = [];

  constructor(private readonly changed: () => void) {}

  get status(): ChatStatus {
    return this.#status;
  }
  set status(status: ChatStatus) {
    this.#status = status;
    this.changed();
  }
  get error(): Error | undefined {
    return this.#error;
  }
  set error(error: Error | undefined) {
    this.#error = error;
    this.changed();
  }
  get messages(): M[] {
    return this.#messages;
  }
  set messages(messages: M[]) {
    this.#messages = messages;
    this.changed();
  }

  pushMessage = (message: M): void => {
    this.messages = [...this.#messages, message];
  };
  popMessage = (): void => {
    this.messages = this.#messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: M): void => {
    this.messages = this.#messages.map((m, i) => (i === index ? message : m));
  };
  snapshot = <T>(value: T): T => structuredClone(value);
}
