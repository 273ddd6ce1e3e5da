import type { S3Client } from '@aws-sdk/client-s3';
import { checkSessionId, SessionStore } from '@skein/core';
import { AgentObjects } from './agent-objects.js';
import { S3Keys } from './keys.js';
import { S3Lease } from './lease.js';
import { S3ObjectStore } from './object-store.js';
import { OrchestratorObjects } from './orchestrator-objects.js';
import { resolveS3Options, type S3SessionRepositoryOptions } from './options.js';
import { SessionObjects } from './session-objects.js';

/**
 * Sessions in an S3 bucket, in Strands Agents' key layout, so sessions written by either open in the
 * other. One writer per session: the first write takes a lease object (`If-None-Match: *`), renewed
 * with `If-Match`; a second writer gets `SessionConflictError` before it writes anything. Creates are
 * also `If-None-Match: *` and updates `If-Match` with the ETag this repository last read or wrote.
 * A writer never goes on from a stale view: after `beginView` (which session managers call before
 * they load a session), its next take of the lease fails, writing nothing, when another writer took
 * it since or held it then.
 * @example
 * const repository = new S3SessionRepository({ bucket: 'my-sessions', prefix: 'production', region: 'eu-west-1' });
 * const agent = new Agent({ model, sessionManager: new RepositorySessionManager({ sessionId: 'user-1', repository }) });
 */
export class S3SessionRepository extends SessionStore {
  /** The bucket sessions live in. */
  readonly bucket: string;
  /** The S3 client in use. */
  readonly client: S3Client;
  protected readonly records: AgentObjects;
  protected readonly orchestrators: OrchestratorObjects;
  readonly #ownsClient: boolean;
  /** This writer's lease on each session it wrote to. */
  readonly #lease: S3Lease;

  constructor(options: S3SessionRepositoryOptions) {
    super();
    const resolved = resolveS3Options(options, 'S3SessionRepository');
    this.bucket = resolved.bucket;
    this.client = resolved.client;
    this.#ownsClient = resolved.ownsClient;
    const keys = new S3Keys(resolved.prefix);
    const store = new S3ObjectStore(resolved.client, resolved.bucket);
    const objects = new SessionObjects(store, keys, resolved.bucket);
    const lease = new S3Lease(store, keys, (key) => objects.url(key), resolved.leaseTtlMs, resolved.takeover);
    this.#lease = lease;
    const concurrency = resolved.readConcurrency;
    // Every write holds the session's lease (taken on the first write, renewed when half of it is gone).
    const writable = (sessionId: string): Promise<void> => lease.ensure(sessionId);
    this.orchestrators = new OrchestratorObjects(store, keys, objects, { concurrency, writable });
    this.records = new AgentObjects(store, keys, objects, {
      concurrency,
      writable,
      deleted: (sessionId) => {
        this.orchestrators.forget(keys.sessionDir(sessionId));
        lease.emptied(sessionId);
      },
    });
  }

  /** Releases the S3 client if the repository created it (a client you passed is left alone). Leases are left to expire: `close()` gives them up. */
  destroy(): void {
    if (this.#ownsClient) this.client.destroy();
  }

  /** Gives up this writer's session leases (so another writer need not wait for them to expire), then destroys the client it created. */
  async close(): Promise<void> {
    await this.#lease.close();
    this.destroy();
  }

  /**
   * Starts this writer's view of `sessionId` (one GET of its lease; a session manager calls it before
   * it reads the session): its next take of the lease fails with `SessionConflictError`, writing
   * nothing, when another writer has taken it since, or held it now. A no-op while this writer holds it.
   */
  async beginView(sessionId: string): Promise<void> {
    checkSessionId(sessionId, 'session id');
    await this.#lease.beginView(sessionId);
  }

  /** Gives up this writer's lease on `sessionId` (a released lease replaces it) and keeps its view: the next write takes it again and checks the view. */
  async release(sessionId: string): Promise<void> {
    checkSessionId(sessionId, 'session id');
    await this.#lease.release(sessionId);
  }
}
