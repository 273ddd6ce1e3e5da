/**
 * The heartbeat of a store's leases (SQLite, S3): while a writer holds any lease it beats every quarter
 * of their time to live (a store renews a lease at a beat, or once half of it is gone), so a live writer keeps its sessions however long it goes without
 * writing (a slow model call), and the lease of one that died expires one time to live after its last
 * beat: a short lease, and a dead holder on another host found in seconds. The timer never keeps the
 * process alive; a beat that fails is tried again at the next one (the writer's next write reports a
 * lease it lost).
 */
export class LeaseHeartbeat {
  readonly #intervalMs: number;
  readonly #beat: () => Promise<void>;
  readonly #active: () => boolean;
  #timer: NodeJS.Timeout | undefined;
  #beating = false;

  /** `beat` renews every lease held; `active` tells whether any is held (the heartbeat stops when none is). */
  constructor(ttlMs: number, beat: () => Promise<void>, active: () => boolean) {
    this.#intervalMs = Math.max(100, Math.floor(ttlMs / 4));
    this.#beat = beat;
    this.#active = active;
  }

  /** After a claim: starts beating, if not already. */
  poke(): void {
    if (this.#timer || !this.#active()) return;
    this.#timer = setInterval(() => void this.#tick(), this.#intervalMs);
    this.#timer.unref();
  }

  /** Stops beating (the writer closed). */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  async #tick(): Promise<void> {
    if (!this.#active()) return this.stop();
    if (this.#beating) return;
    this.#beating = true;
    try {
      await this.#beat();
    } catch {
      // The next beat tries again; a lease that is lost shows at the writer's next write.
    } finally {
      this.#beating = false;
    }
  }
}
