import { MessageAddedEvent } from '../hooks/events.js';
import { checkResponses, closingResults, resumeStopped, type PendingTurn } from '../interrupt/pending-turn.js';
import type { ResumeAnswers } from '../interrupt/pending-turn.js';
import type { Message } from '../types/messages.js';
import type { AgentHandle } from './agent-handle.js';
import { checkMessage, promptResponses, promptToMessages, type Prompt } from './prompt.js';

/**
 * An agent's conversation: its live history and the turn kept aside while it waits for answers or a
 * larger budget (never in the history: no toolUse without its toolResult). Appending fires
 * `MessageAddedEvent` when a hook listens.
 */
export class Conversation {
  readonly #agent: AgentHandle;
  #messages: Message[];
  /** The turn waiting aside, if any. */
  pending: PendingTurn | undefined;

  constructor(agent: AgentHandle, messages: readonly Message[] | undefined) {
    if (messages) messages.forEach((m, i) => checkMessage(m, `messages[${i}]`));
    this.#agent = agent;
    this.#messages = messages ? [...messages] : [];
  }

  get messages(): Message[] {
    return this.#messages;
  }

  set messages(messages: Message[]) {
    messages.forEach((m, i) => checkMessage(m, `messages[${i}]`));
    this.#messages = messages;
  }

  /** Takes `messages` as the history without checking them (see `setCheckedHistory`). */
  adopt(messages: Message[]): void {
    this.#messages = messages;
  }

  /** Appends `message`; a promise only when a MessageAddedEvent hook has to run (await it then). */
  append(message: Message): Promise<void> | undefined {
    this.#messages.push(message);
    const hooks = this.#agent.hooks;
    if (!hooks.has(MessageAddedEvent)) return undefined;
    return hooks.invoke(new MessageAddedEvent(this.#agent, message)).then(() => undefined);
  }

  /** Keeps `turn` aside (its message leaves the history), or clears it with `undefined`. */
  setPending(turn: PendingTurn | undefined): void {
    if (turn) {
      const at = this.#messages.lastIndexOf(turn.message);
      if (at >= 0) this.#messages.splice(at, 1);
    }
    this.pending = turn;
  }

  /**
   * What an invocation with `prompt` resumes: the pending turn with the answers the prompt carries
   * (checked before anything changes), or, without a prompt, a turn the budget stopped.
   */
  resumeFor(prompt: Prompt | undefined): ResumeAnswers | undefined {
    const responses = promptResponses(prompt);
    if (responses) return checkResponses(this.pending, responses);
    if (prompt === undefined && this.pending?.interrupts.length === 0) return resumeStopped(this.pending);
    return undefined;
  }

  /**
   * Opens a turn that resumes nothing: a pending turn is closed (its uses without a result get error
   * results saying no answer came), then the prompt is appended. Returns the messages appended; a
   * promise only when a MessageAddedEvent hook has to run.
   */
  open(prompt: Prompt | undefined): Message[] | Promise<Message[]> {
    const turn = this.pending;
    const prompted = promptToMessages(prompt);
    this.pending = undefined;
    const messages = turn ? [turn.message, closingResults(turn), ...prompted] : prompted;
    if (this.#agent.hooks.has(MessageAddedEvent)) return this.#openHooked(messages);
    for (const message of messages) this.#messages.push(message);
    return messages;
  }

  async #openHooked(messages: Message[]): Promise<Message[]> {
    for (const message of messages) await this.append(message);
    return messages;
  }
}
