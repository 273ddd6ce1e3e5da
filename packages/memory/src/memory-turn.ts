import { checkMemoryId, type JsonObject, type MemoryTarget, type Message } from '@skein/core';
import type { Capped, Recalled } from './recall.js';

/** A target checked: resource and thread both safe ids. */
export interface Resolved {
  readonly resource: string;
  readonly thread: string;
}

/** Checks a target's ids (a `MemoryError` before anything is read) and fills in the default thread. */
export function resolveTarget(target: MemoryTarget): Resolved {
  if (typeof target !== 'object' || target === null) checkMemoryId(target, 'target (give { resource, thread })');
  checkMemoryId(target.resource, 'resource');
  const thread = target.thread ?? 'default';
  checkMemoryId(thread, 'thread');
  return { resource: target.resource, thread };
}

/**
 * One turn of an orchestrator holding a memory (from `memory.openTurn`): the target its nodes are
 * invoked with. They read under it; recall runs once for the turn, with the task as its query.
 */
export class MemoryTurn implements MemoryTarget, Resolved {
  readonly resource: string;
  readonly thread: string;
  readonly task: string;
  /** The turn's recall, made by the first node that needs it. */
  recalled: Promise<Capped<Recalled>> | undefined;

  constructor(target: Resolved, task: string) {
    this.resource = target.resource;
    this.thread = target.thread;
    this.task = task;
  }
}

/** What memory keeps about one invocation of one agent. */
export interface AgentTurn {
  /** The messages the invocation appended (recorded when it ends, for an agent's own memory). */
  readonly added: Message[];
  target: Resolved | MemoryTurn | undefined;
  /** Read once per invocation: working memory, facts, recall. */
  prepared: Promise<Prepared> | undefined;
  /** The working memory as it stands (the update tool changes it). */
  working: JsonObject | undefined;
}

/** What an invocation read from memory at its first model call. */
export interface Prepared {
  facts: string[];
  recalled: Recalled;
}
