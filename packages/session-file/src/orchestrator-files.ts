/**
 * The orchestrator records of a file session (a Graph's or Swarm's state document, its node entries
 * and its numbered transitions), under `session_<id>/multi_agents/<id>/`. Writes go through the
 * session's lock and view (`SessionFiles.writable`) like every other record of the session.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  SessionCorruptError,
  mapLimit,
  type JsonObject,
  type NodeTransition,
  type OrchestratorRecords,
  type SessionMultiAgent,
} from '@skein/core';
import { fsError, errnoCode } from './errors.js';
import { multiAgentDoc, readJson, toMultiAgent, toNodeEntry, toTransition } from './documents.js';
import { numbered, type FileStore, type SessionFiles } from './session-files.js';
import type { SessionPaths } from './session-paths.js';

/** The orchestrator half of `FileSessionRepository`. */
export class OrchestratorFiles implements OrchestratorRecords {
  readonly #paths: SessionPaths;
  readonly #files: SessionFiles;
  readonly #concurrency: number;

  constructor(store: FileStore) {
    ({ paths: this.#paths, files: this.#files, concurrency: this.#concurrency } = store);
  }

  async createMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    const file = this.#paths.multiAgentFile(sessionId, multiAgent.id);
    await this.#files.require(
      this.#paths.sessionFile(sessionId),
      `Session ${sessionId} does not exist; create it first.`,
    );
    await this.#files.writable(sessionId);
    await this.#files.mkdir(path.dirname(file));
    await this.#files.write(
      file,
      multiAgentDoc(multiAgent),
      'create',
      `Orchestrator ${multiAgent.id} of session ${sessionId}`,
    );
  }

  async readMultiAgent(sessionId: string, multiAgentId: string): Promise<SessionMultiAgent | undefined> {
    const file = this.#paths.multiAgentFile(sessionId, multiAgentId);
    const raw = await readJson(file, this.#paths.root);
    return raw === undefined ? undefined : toMultiAgent(raw, file);
  }

  async updateMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    const file = this.#paths.multiAgentFile(sessionId, multiAgent.id);
    await this.#files.require(
      file,
      `Orchestrator ${multiAgent.id} does not exist in session ${sessionId}; create it first.`,
    );
    await this.#files.writable(sessionId);
    await this.#files.write(file, multiAgentDoc(multiAgent), 'replace', `Orchestrator ${multiAgent.id}`);
  }

  async deleteMultiAgent(sessionId: string, multiAgentId: string): Promise<void> {
    const dir = this.#paths.multiAgent(sessionId, multiAgentId);
    if (!(await this.#files.exists(dir))) return;
    await this.#files.writable(sessionId);
    const trash = path.join(path.dirname(dir), `.deleted-${path.basename(dir)}-${randomBytes(6).toString('hex')}`);
    await fs.rename(dir, trash).catch((e: unknown) => {
      throw fsError(e, 'delete', dir, this.#paths.root);
    });
    this.#files.forget();
    await fs.rm(trash, { recursive: true, force: true });
  }

  async putNodeEntry(sessionId: string, multiAgentId: string, nodeId: string, entry: JsonObject): Promise<void> {
    const file = this.#paths.nodeFile(sessionId, multiAgentId, nodeId);
    await this.#files.require(
      this.#paths.multiAgentFile(sessionId, multiAgentId),
      `Orchestrator ${multiAgentId} does not exist in session ${sessionId}; save its state first.`,
    );
    await this.#files.writable(sessionId);
    await this.#files.mkdir(path.dirname(file));
    await this.#files.write(file, entry, 'replace', `Node ${nodeId} of ${multiAgentId}`);
  }

  async readNodeEntries(sessionId: string, multiAgentId: string): Promise<Record<string, JsonObject>> {
    const dir = this.#paths.nodes(sessionId, multiAgentId);
    let names: string[];
    try {
      names = (await fs.readdir(dir)).filter((n) => /^node_.+\.json$/.test(n));
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return {};
      throw fsError(error, 'list', dir, this.#paths.root);
    }
    const entries = await mapLimit(names, this.#concurrency, async (name) => {
      const file = path.join(dir, name);
      return [
        name.slice('node_'.length, -'.json'.length),
        toNodeEntry(await readJson(file, this.#paths.root), file),
      ] as const;
    });
    return Object.fromEntries(entries);
  }

  async appendTransitions(
    sessionId: string,
    multiAgentId: string,
    transitions: readonly NodeTransition[],
  ): Promise<void> {
    if (transitions.length === 0) return;
    const dir = this.#paths.transitions(sessionId, multiAgentId);
    await this.#files.require(
      this.#paths.multiAgentFile(sessionId, multiAgentId),
      `Orchestrator ${multiAgentId} does not exist in session ${sessionId}; save its state first.`,
    );
    await this.#files.writable(sessionId);
    await this.#files.mkdir(dir);
    for (const t of transitions) {
      const doc = {
        seq: t.seq,
        from: t.from,
        to: t.to,
        kind: t.kind,
        reason: t.reason,
        ...(t.details ? { details: t.details } : {}),
        at: t.at,
      };
      await this.#files.write(
        this.#paths.transitionFile(sessionId, multiAgentId, t.seq),
        doc,
        'create',
        `Transition ${t.seq} of ${multiAgentId}`,
      );
    }
  }

  async readTransitions(sessionId: string, multiAgentId: string): Promise<NodeTransition[]> {
    const dir = this.#paths.transitions(sessionId, multiAgentId);
    const seqs = (await numbered(dir, 'transition', this.#paths.root)) ?? [];
    seqs.forEach((seq, i) => {
      if (seq !== i) {
        const missing = path.join(dir, `transition_${i}.json`);
        throw new SessionCorruptError(
          `${missing} is missing (the history has transition ${seq}); restore it from a backup.`,
          { location: missing },
        );
      }
    });
    return mapLimit(seqs, this.#concurrency, async (seq) => {
      const file = path.join(dir, `transition_${seq}.json`);
      return toTransition(await readJson(file, this.#paths.root), file, seq);
    });
  }
}
