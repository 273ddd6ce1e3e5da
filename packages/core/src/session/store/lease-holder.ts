/**
 * Who holds a store's lease on a session (one writer per session), and whether that holder is
 * certainly gone so another writer may take the session over. One set of rules for every store's
 * lease (the file lock, the S3 lease object, the SQL lease rows): the holder's owner id, process,
 * host and expiry.
 */

/** The holder fields of a lease record. */
export interface LeaseHolder {
  owner: string | null;
  pid: number | null;
  host: string | null;
  /** When the lease expires, in ms since the epoch (`null`: it does not hold; `Infinity`: never, as a file lock). */
  expires_at: number | null;
  /** The holder gave the lease up (an S3 lease keeps its object, marked released). */
  released?: boolean;
}

/** Owner ids of the leases held by stores open in this process: a lease of this pid with another owner was left over. */
const openOwners = new Set<string>();

/** Marks `owner` as a lease owner of a store open in this process (until `leaseOwnerClosed`). */
export function leaseOwnerOpened(owner: string): void {
  openOwners.add(owner);
}

/** The store of `owner` closed: a lease it left is left over. */
export function leaseOwnerClosed(owner: string): void {
  openOwners.delete(owner);
}

/** True when a process with this pid exists on this host (one we may not signal exists too). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/**
 * True when the lease is free or its holder is certainly gone: expired at `nowMs`, or held on
 * `thisHost` by a dead process, or by this process through a store that is no longer open.
 */
export function leaseHolderGone(holder: LeaseHolder, nowMs: number, thisHost: string): boolean {
  if (holder.owner === null || holder.released === true) return true;
  if ((holder.expires_at ?? 0) <= nowMs) return true;
  if (holder.host !== thisHost) return false;
  return holder.pid === process.pid ? !openOwners.has(holder.owner) : !processAlive(holder.pid ?? 0);
}

/** The holder as an error message names it (`lease until` its expiry). */
export function describeLeaseHolder(holder: LeaseHolder): string {
  return `process ${holder.pid} on ${holder.host}, lease until ${new Date(holder.expires_at ?? 0).toISOString()}`;
}
