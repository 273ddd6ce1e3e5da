/**
 * Who a request of the web desk comes from, for `@skein/server`'s `authorize`: a customer (the id the
 * sign-in form put in a cookie), or the supervisor (the key the desk printed, kept in a cookie) acting
 * on one customer's conversation (`x-desk-customer`), where it may only read and answer what waits.
 * The customer cookie stands in for a real login: put yours here.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Principal } from '@skein/server';

export const CUSTOMER_COOKIE = 'desk-customer';
export const SUPERVISOR_COOKIE = 'desk-supervisor';
/** The customer a supervisor's request acts for. */
export const ON_BEHALF_HEADER = 'x-desk-customer';

const CUSTOMER_ID = /^[A-Za-z0-9_.@-]{1,64}$/;
/** What the supervisor may do in a customer's conversation: read it, see what waits (GET), answer it (POST). */
const SUPERVISOR_READS = /^\/v1\/[a-z]+\/desk\/conversations\/[^/]+(\/pending)?$/;
const SUPERVISOR_ANSWERS = /^\/v1\/[a-z]+\/desk\/conversations\/[^/]+\/answers$/;
/** A customer's request that answers what waits for a person: theirs to ask, not to approve. */
const ANSWERS = /\/answers$/;

/** A customer id the sign-in form accepts: 1-64 characters from `A-Z a-z 0-9 _ . @ -`. */
export function validCustomerId(value: string): boolean {
  return CUSTOMER_ID.test(value);
}

/** The principal id of a customer (the server's owner of their conversations). */
function customerPrincipal(customer: string): string {
  return `customer:${customer}`;
}

/** The cookies of a request. */
function cookiesOf(request: Request): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const pair of (request.headers.get('cookie') ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const value = pair.slice(at + 1).trim();
    try {
      cookies.set(pair.slice(0, at).trim(), decodeURIComponent(value));
    } catch {
      // a malformed value is no credential
    }
  }
  return cookies;
}

/** The signed-in customer, if any. */
export function customerOf(request: Request): string | undefined {
  const id = cookiesOf(request).get(CUSTOMER_COOKIE);
  return id !== undefined && validCustomerId(id) ? id : undefined;
}

function sameKey(given: string, key: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** True when the request carries the supervisor's key (cookie, or `?key=` when `fromQuery`). */
export function isSupervisor(request: Request, key: string, fromQuery = false): boolean {
  const given = fromQuery ? new URL(request.url).searchParams.get('key') : cookiesOf(request).get(SUPERVISOR_COOKIE);
  return given !== undefined && given !== null && sameKey(given, key);
}

/** `authorize` for `createServer`: a customer, the supervisor acting for one, or `undefined` (401). Throwing answers 403. */
export function deskAuthorize(supervisorKey: string): (request: Request) => Principal | undefined {
  return (request) => {
    const path = new URL(request.url).pathname;
    const onBehalf = request.headers.get(ON_BEHALF_HEADER);
    if (onBehalf === null) {
      const customer = customerOf(request);
      if (customer === undefined) return undefined;
      if (ANSWERS.test(path)) throw new Error('a person on the team answers approvals, on the supervisor page');
      return customerPrincipal(customer);
    }
    if (!isSupervisor(request, supervisorKey)) throw new Error(`only the supervisor may send ${ON_BEHALF_HEADER}`);
    if (!validCustomerId(onBehalf)) throw new Error(`${ON_BEHALF_HEADER} is not a customer id`);
    const allowed = request.method === 'POST' ? SUPERVISOR_ANSWERS.test(path) : SUPERVISOR_READS.test(path);
    if (!allowed || (request.method !== 'POST' && request.method !== 'GET'))
      throw new Error('the supervisor reads conversations and answers what waits; messages come from customers');
    return { id: customerPrincipal(onBehalf), supervisor: true };
  };
}

/** The supervisor's key, kept in `<dir>/web-supervisor-key` (made on first start), so a restart keeps the supervisor signed in. */
export async function supervisorKey(dir: string): Promise<string> {
  const file = join(dir, 'web-supervisor-key');
  try {
    const key = (await readFile(file, 'utf8')).trim();
    if (key.length >= 16) return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(18).toString('base64url');
  await mkdir(dir, { recursive: true });
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  return key;
}
