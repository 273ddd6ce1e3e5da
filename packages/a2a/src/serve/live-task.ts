/**
 * A task whose run is in this process: the A2A task as it stands (answers GetTask without a read),
 * the subscribers of its event stream (SendStreamingMessage, SubscribeToTask), and how to stop it.
 */
import type { Artifact, StreamResponse, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { EventChannel, type Interrupt } from '@skein/core';
import { isTerminal, isWaiting } from '../wire/protocol.js';

export class LiveTask {
  readonly task: Task;
  readonly owner: string;
  readonly controller = new AbortController();
  cancelRequested = false;
  interrupts: Interrupt[] | undefined;
  readonly #subscribers = new Set<EventChannel<StreamResponse>>();
  readonly #ended: Promise<void>;
  #end: () => void = () => undefined;

  constructor(task: Task, owner: string) {
    this.task = task;
    this.owner = owner;
    this.#ended = new Promise((resolve) => {
      this.#end = resolve;
    });
  }

  get id(): string {
    return this.task.id;
  }

  /** Resolves when the run has stopped: the task is finished or waits for the caller. */
  get ended(): Promise<void> {
    return this.#ended;
  }

  /** A copy of the task as it stands. */
  snapshot(): Task {
    return structuredClone(this.task);
  }

  /** Applies a status update to the task (a waiting or final status message joins the history). */
  applyStatus(event: TaskStatusUpdateEvent): void {
    this.task.status = event.status;
    const message = event.status?.message;
    if (message && (isTerminal(event.status?.state) || isWaiting(event.status?.state))) this.task.history.push(message);
  }

  /** Applies an artifact update (replacing the artifact with the same id, or appending its parts). */
  applyArtifact(event: TaskArtifactUpdateEvent): void {
    const incoming = event.artifact;
    if (!incoming) return;
    const at = this.task.artifacts.findIndex((a: Artifact) => a.artifactId === incoming.artifactId);
    const existing = this.task.artifacts[at];
    if (!existing) this.task.artifacts.push(incoming);
    else if (event.append) existing.parts.push(...incoming.parts);
    else this.task.artifacts[at] = incoming;
  }

  /** Sends an event to every subscriber; a final or waiting status ends their streams. */
  notify(response: StreamResponse): void {
    for (const s of this.#subscribers) s.push(response);
    const p = response.payload;
    if (p?.$case === 'statusUpdate' && (isTerminal(p.value.status?.state) || isWaiting(p.value.status?.state))) {
      for (const s of this.#subscribers) s.close();
      this.#subscribers.clear();
    }
  }

  /** Applies and sends a progress status update. */
  progress(event: TaskStatusUpdateEvent): void {
    this.applyStatus(event);
    this.notify({ payload: { $case: 'statusUpdate', value: event } });
  }

  /** A stream of the task's next events, ending with its final or waiting status (or when `signal` aborts). */
  subscribe(): EventChannel<StreamResponse> {
    const queue = new EventChannel<StreamResponse>();
    this.#subscribers.add(queue);
    return queue;
  }

  unsubscribe(queue: EventChannel<StreamResponse>): void {
    this.#subscribers.delete(queue);
    queue.close();
  }

  /** Marks the run as stopped (subscribers still open are ended). */
  finish(): void {
    for (const s of this.#subscribers) s.close();
    this.#subscribers.clear();
    this.#end();
  }
}
