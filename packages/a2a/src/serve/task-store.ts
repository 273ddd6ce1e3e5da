/**
 * Where served tasks live. A task is a skein session (its id is the session id): the run's own
 * records (an agent's messages, a graph's or swarm's state) and, beside them, the A2A task document
 * (status, history, artifacts, owner, what it waits for) as the state of an `a2a-task` entry. An
 * index session lists every task with its owner, context and state, for ListTasks, for the owner
 * check (an unknown id is answered from the index without touching any session) and for resuming
 * after a restart. Order of writes: the task document first, then its index entry (the commit point).
 */
import type { Interrupt, InterruptResponse, JsonObject, MultiAgentSession, SessionManager } from '@skein/core';

/** The id under which the A2A task document is stored in the task's session. */
const TASK_DOC_ID = 'a2a-task';
const INDEX_ID = 'a2a-index';

/** The stored A2A task and what skein needs to go on with it. */
export interface TaskDoc {
  version: 1;
  owner: string;
  createdAt: string;
  /** The A2A task in its wire JSON (`Task.toJSON`). */
  task: JsonObject;
  /** What the task waits for (input-required). */
  interrupts?: Interrupt[];
  /** Answers the current run resumed with (an agent resuming after a restart needs them again). */
  answers?: InterruptResponse[];
  /** The trace the task's runs belong to. */
  traceparent?: string;
}

/** One task in the index. */
export interface IndexEntry {
  owner: string;
  contextId: string;
  state: string;
  createdAt: string;
  updatedAt: string;
}

function isDoc(v: JsonObject | undefined): v is JsonObject & TaskDoc {
  return v !== undefined && v['version'] === 1 && typeof v['owner'] === 'string' && typeof v['task'] === 'object';
}

/** Reads and writes task documents in task sessions. */
export class TaskDocs {
  readonly #sessions: (id: string) => SessionManager;
  constructor(sessions: (id: string) => SessionManager) {
    this.#sessions = sessions;
  }

  /** Opens a task's session for a run or a write; close it with `release`. */
  open(taskId: string): SessionManager {
    return this.#sessions(taskId);
  }

  /** The task's document, read through a manager of its own (reads take no lock). */
  async read(taskId: string): Promise<TaskDoc | undefined> {
    const sm = this.#sessions(taskId);
    try {
      const loaded = await (await sm.openMultiAgent(TASK_DOC_ID, TASK_DOC_ID)).load();
      return isDoc(loaded?.state) ? loaded.state : undefined;
    } finally {
      await sm.close?.();
    }
  }

  /** Writes the task's document through `sm` (the run's manager, or one opened for the write). */
  async write(sm: SessionManager, doc: TaskDoc): Promise<void> {
    const handle: MultiAgentSession = await sm.openMultiAgent(TASK_DOC_ID, TASK_DOC_ID);
    await handle.saveState(doc as unknown as JsonObject);
  }
}

/** The index of tasks, held in memory and written through to its session. */
export class TaskIndex {
  readonly #sm: SessionManager;
  #session: MultiAgentSession | undefined;
  readonly #entries = new Map<string, IndexEntry>();

  constructor(sm: SessionManager) {
    this.#sm = sm;
  }

  /** Reads the stored index (creating it when new). */
  async load(): Promise<void> {
    const session = await this.#sm.openMultiAgent(INDEX_ID, INDEX_ID);
    const loaded = await session.load();
    if (!loaded) await session.saveState({ kind: 'a2a-task-index', version: 1 });
    for (const [id, entry] of Object.entries(loaded?.nodes ?? {})) {
      if (typeof entry['owner'] === 'string' && typeof entry['state'] === 'string')
        this.#entries.set(id, entry as unknown as IndexEntry);
    }
    this.#session = session;
  }

  get(taskId: string): IndexEntry | undefined {
    return this.#entries.get(taskId);
  }

  entries(): [string, IndexEntry][] {
    return [...this.#entries];
  }

  /** Stores (and remembers) a task's entry. */
  async put(taskId: string, entry: IndexEntry): Promise<void> {
    if (!this.#session) throw new Error('TaskIndex.load() was not called.');
    await this.#session.saveNode(taskId, entry as unknown as JsonObject);
    this.#entries.set(taskId, entry);
  }

  close(): Promise<void> {
    return this.#sm.close?.() ?? Promise.resolve();
  }
}
