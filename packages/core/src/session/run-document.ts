import { SessionConflictError } from '../errors/session-errors.js';
import type { JsonObject } from '../types/json.js';
import type { SessionRepository, SessionWrite } from './session-repository.js';
import { nowIso, type SessionMultiAgent } from './session-types.js';

/** The record beside an orchestrator's own (`<id>@run`) that describes its current run: a graph's shape, a swarm's members. */
export const runDocumentId = (id: string): string => `${id}@run`;

/**
 * An orchestrator's run document: written once per run (with its first step, before the commit
 * point: harmless to repeat), replaced by the next run's, never read back by the orchestrator
 * (readers such as the inspector do). Keeps a step's state document free of what does not change.
 */
export class RunDocument {
  readonly #repo: SessionRepository;
  readonly #sessionId: string;
  readonly #id: string;
  /** Whether the record exists (`undefined`: not known yet). */
  #exists: boolean | undefined;

  constructor(repo: SessionRepository, sessionId: string, id: string) {
    this.#repo = repo;
    this.#sessionId = sessionId;
    this.#id = id;
  }

  #doc(state: JsonObject): SessionMultiAgent {
    const now = nowIso();
    return { id: runDocumentId(this.#id), type: 'run', state, created_at: now, updated_at: now };
  }

  /** Writes it (created, or replaced when it exists). */
  async write(state: JsonObject): Promise<void> {
    const doc = this.#doc(state);
    if (this.#exists) await this.#repo.updateMultiAgent(this.#sessionId, doc);
    else {
      await this.#repo.createMultiAgent(this.#sessionId, doc).catch(async (error: unknown) => {
        if (!(error instanceof SessionConflictError)) throw error;
        await this.#repo.updateMultiAgent(this.#sessionId, doc);
      });
    }
    this.#exists = true;
  }

  /** The write for a step stored as one batch (finds out once whether the record exists). */
  async batch(state: JsonObject): Promise<SessionWrite> {
    this.#exists ??= (await this.#repo.readMultiAgent(this.#sessionId, runDocumentId(this.#id))) !== undefined;
    return { op: this.#exists ? 'updateMultiAgent' : 'createMultiAgent', multiAgent: this.#doc(state) };
  }

  /** After a batch that held `batch()`'s write was stored. */
  stored(): void {
    this.#exists = true;
  }
}
