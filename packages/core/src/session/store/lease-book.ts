import { randomBytes } from 'node:crypto';
import { SessionConflictError } from '../../errors/session-errors.js';
import { describeLeaseHolder, leaseOwnerClosed, leaseOwnerOpened, type LeaseHolder } from './lease-holder.js';

/** What a writer saw of a session when it loaded it (`beginView`): the lease's generation then, and another live holder then. */
export interface LeaseView<G> {
  /** The generation (`undefined`: no lease record yet). */
  generation: G | undefined;
  /** Another writer holding the session then, as messages name it (`process 12 on host-a, ...`). */
  heldBy: string | undefined;
}

/** How a store's lease book names things and which of the rules' choices it takes. */
export interface LeaseBookOptions {
  /** How messages name a session: `Session s1 in sqlite:/data/desk.db`. */
  session(sessionId: string): string;
  /** How the "held" message names the lease (the S3 lease object's URL); default the session. */
  lease?(sessionId: string): string;
  /** The `location` of the conflicts (the store, the lock file, the lease object). */
  location(sessionId: string): string;
  /** What to do when the other holder is gone (a store with leases: wait or take over; files: remove the lock). */
  whenGone: string;
  /** Claim a session even from a live holder (the caller knows it is gone). */
  takeover: boolean;
  /** A claim starts a view for a writer that began none (the SQL stores); else only views a writer began are kept. */
  claimStartsView?: boolean;
  /** Put before the owner id (PostgreSQL: writers that keep a presence). */
  ownerPrefix?: string;
}

/** What to do about a live holder that is gone, where a lease expires (S3, the SQL stores). */
export const WAIT_OR_TAKE_OVER = 'wait until its lease expires, or pass takeover: true if you know it is gone';

const RELOAD =
  'Reload it (build the agent, Graph or Swarm again on a new session manager) and retry. Nothing was written.';

/**
 * One writer per session, by one set of rules and messages for every store: a writer claims a
 * session at its first write (a new generation of the session's lease), may not claim while another
 * live writer holds it (unless `takeover`), nor when its view is stale: another writer held the
 * session when this writer loaded it (`beginView`), or claimed it since (another generation). A
 * writer that finds its lease taken over or given up stops. The book keeps this writer's claims
 * (`G`: the generation a store compares, a number for the SQL stores, the lease object's ETag on S3,
 * the generation file's text for files) and views; each store's `lease.ts` reads and writes its
 * lease record and asks the book.
 */
export class LeaseBook<G> {
  /** This writer's owner id (a lease record names it). */
  readonly owner: string;
  readonly #options: LeaseBookOptions;
  readonly #held = new Map<string, G>();
  readonly #views = new Map<string, LeaseView<G>>();

  constructor(options: LeaseBookOptions) {
    this.#options = options;
    this.owner = `${options.ownerPrefix ?? ''}${randomBytes(8).toString('hex')}`;
    leaseOwnerOpened(this.owner);
  }

  /** The book of a store with a lease row per session (the SQL stores): sessions named in `store`, a claim starts a view. */
  static rows(store: string, takeover: boolean, ownerPrefix = ''): LeaseBook<number> {
    return new LeaseBook<number>({
      session: (sessionId) => `Session ${sessionId} in ${store}`,
      location: () => store,
      whenGone: WAIT_OR_TAKE_OVER,
      takeover,
      claimStartsView: true,
      ownerPrefix,
    });
  }

  /** Whether the caller may take the session from a live holder. */
  get takeover(): boolean {
    return this.#options.takeover;
  }

  /** The generation this writer holds `sessionId` with (committed), if it holds it. */
  holding(sessionId: string): G | undefined {
    return this.#held.get(sessionId);
  }

  /** Sessions this writer holds. */
  heldSessions(): string[] {
    return [...this.#held.keys()];
  }

  /** This writer's view of `sessionId`, if it began one (or a claim started one). */
  view(sessionId: string): LeaseView<G> | undefined {
    return this.#views.get(sessionId);
  }

  /** Starts this writer's view of `sessionId`: what it saw before it loaded the session. */
  beginView(sessionId: string, view: LeaseView<G>): void {
    this.#views.set(sessionId, view);
  }

  /** A claim (or a renewal that changed the generation) was stored: this writer holds `generation`, and its view is its own. */
  hold(sessionId: string, generation: G): void {
    this.#held.set(sessionId, generation);
    if (this.#options.claimStartsView || this.#views.has(sessionId))
      this.#views.set(sessionId, { generation, heldBy: undefined });
  }

  /** This writer gave the session up (or lost it); returns whether it held it. Its view stays. */
  drop(sessionId: string): boolean {
    return this.#held.delete(sessionId);
  }

  /** This writer deleted the session (its lease with it): its view is the empty session. */
  emptied(sessionId: string): void {
    this.#held.delete(sessionId);
    if (this.#views.has(sessionId)) this.#views.set(sessionId, { generation: undefined, heldBy: undefined });
  }

  /** The writer closed: it holds nothing more, and a lease it left in this process is left over. */
  close(): void {
    leaseOwnerClosed(this.owner);
    this.#held.clear();
  }

  /** Before a claim: refuses it when another writer held the session when this writer loaded it. */
  checkViewHolder(sessionId: string): void {
    const heldBy = this.#views.get(sessionId)?.heldBy;
    if (heldBy === undefined) return;
    throw this.#conflict(
      sessionId,
      `${this.#options.session(sessionId)} was held by another writer (${heldBy}) when this writer loaded it, so what this writer loaded may miss that writer's later writes. ${RELOAD}`,
    );
  }

  /** At a claim: refuses it when the session's generation is no longer the one this writer's view saw (`by`: who wrote it, in words). */
  checkView(sessionId: string, generation: G | undefined, by = ''): void {
    const view = this.#views.get(sessionId);
    if (view && view.generation !== generation) throw this.staleError(sessionId, by);
  }

  /** At a claim: refuses it while another live writer (`heldBy`, in words) holds the session, unless `takeover`. */
  checkHolder(sessionId: string, heldBy: string | undefined): void {
    if (heldBy !== undefined && !this.#options.takeover) throw this.heldError(sessionId, heldBy);
  }

  /**
   * The rule of a store with a generation counter (the SQL stores), from the lease record read in the
   * write's transaction (`gone`: whether its holder is certainly gone, asked only for a claim): `mine`, the generation this writer holds, while the record still names it
   * (`claimed: false`); else a new claim (`claimed: true`) after the checks above, or the generation
   * a claim of this writer whose answer was lost left. Throws `SessionConflictError` for a lease taken
   * over or given up (and forgets it), for a live holder, and for a stale view.
   */
  decide(
    this: LeaseBook<number>,
    sessionId: string,
    record: LeaseHolder & { generation: number },
    gone: () => boolean,
    mine: number | undefined = this.holding(sessionId),
  ): { generation: number; claimed: boolean } {
    if (mine !== undefined) {
      if (record.owner === this.owner && record.generation === mine) return { generation: mine, claimed: false };
      this.drop(sessionId);
      throw this.lostError(
        sessionId,
        record.owner ? `another writer (${describeLeaseHolder(record)}) took it over` : 'its lease was given up',
      );
    }
    if (record.owner === this.owner) return { generation: record.generation, claimed: false };
    this.checkHolder(sessionId, gone() ? undefined : describeLeaseHolder(record));
    this.checkViewHolder(sessionId);
    this.checkView(sessionId, record.generation);
    return { generation: record.generation + 1, claimed: true };
  }

  /** Another live writer holds the session: only one writer may hold a session. */
  heldError(sessionId: string, heldBy: string): SessionConflictError {
    const lease = (this.#options.lease ?? this.#options.session)(sessionId);
    return this.#conflict(
      sessionId,
      `${lease} is held by another writer (${heldBy}); only one writer may hold a session. Close the other writer (close() or release() on its session manager gives it up) and retry; ${this.#options.whenGone}. Nothing was written.`,
    );
  }

  /** Another writer claimed the session after this writer loaded it (`by`: ` (process 12 on host-a, ...)`, or nothing). */
  staleError(sessionId: string, by = ''): SessionConflictError {
    return this.#conflict(
      sessionId,
      `${this.#options.session(sessionId)} was written by another writer${by} after this writer loaded it, so what this writer holds is out of date. ${RELOAD}`,
    );
  }

  /** This writer's lease was taken over or given up (`why`) while it was idle or paused past it. */
  lostError(sessionId: string, why: string): SessionConflictError {
    return this.#conflict(
      sessionId,
      `${this.#options.session(sessionId)}: this writer no longer holds it: ${why} (it was idle or paused past its lease). Nothing more was written; reopen the session to continue from what is stored.`,
    );
  }

  /** Two writers claimed the session at the same moment; this one lost. */
  raceError(sessionId: string): SessionConflictError {
    return this.#conflict(
      sessionId,
      `${this.#options.session(sessionId)}: another writer claimed it at the same moment; only one writer may hold a session. Retry later. Nothing was written.`,
    );
  }

  #conflict(sessionId: string, message: string): SessionConflictError {
    return new SessionConflictError(message, { location: this.#options.location(sessionId) });
  }
}
