/**
 * Who a request of the web desk comes from, for `@skein/server`'s `authorize`: a customer (the id the
 * sign-in form put in a cookie signed with the desk's cookie key, so nobody can set someone else's),
 * or the supervisor (the key the desk printed, kept in a cookie) acting on one customer's conversation
 * (`x-desk-customer`), where it may only read it, see what waits and answer it. Who may answer an
 * approval is the server's rule (`authorizeAnswer`): the supervisor, never a customer. Decisions are
 * made on the route as the server routed it, never on the raw URL. The customer cookie stands in for a
 * real login: put yours here.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuthorizeAnswer, Principal, RouteInfo, ServerAction } from '@skein/server';

export const CUSTOMER_COOKIE = 'desk-customer';
export const SUPERVISOR_COOKIE = 'desk-supervisor';
/** The customer a supervisor's request acts for. */
export const ON_BEHALF_HEADER = 'x-desk-customer';

const CUSTOMER_ID = /^[A-Za-z0-9_.@-]{1,64}$/;
/** What the supervisor may do in a customer's conversation: read it, see what waits, answer it. */
const SUPERVISOR_ACTIONS: ReadonlySet<ServerAction> = new Set(['read', 'pending', 'answers']);

/** A customer id the sign-in form accepts: 1-64 characters from `A-Z a-z 0-9 _ . @ -`. */
export function validCustomerId(value: string): boolean {
  return CUSTOMER_ID.test(value);
}

/** The principal id of a customer (the server's owner of their conversations). */
export function customerPrincipal(customer: string): string {
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

/** `given` equals `key` (in constant time). */
export function sameKey(given: string, key: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

function signature(customer: string, cookieKey: string): string {
  return createHmac('sha256', cookieKey).update(`${CUSTOMER_COOKIE}:${customer}`).digest('base64url');
}

/** The value of the signed-in cookie of `customer`: `<id>.<HMAC of the id with the desk's cookie key>`. */
export function customerCookieValue(customer: string, cookieKey: string): string {
  return `${customer}.${signature(customer, cookieKey)}`;
}

/** The signed-in customer, if the cookie carries a valid signature. */
export function customerOf(request: Request, cookieKey: string): string | undefined {
  const value = cookiesOf(request).get(CUSTOMER_COOKIE);
  const at = value?.lastIndexOf('.') ?? -1;
  if (value === undefined || at <= 0) return undefined;
  const customer = value.slice(0, at);
  if (!validCustomerId(customer) || !sameKey(value.slice(at + 1), signature(customer, cookieKey))) return undefined;
  return customer;
}

/** True when the request carries the supervisor's key (cookie, or `?key=` when `fromQuery`). */
export function isSupervisor(request: Request, key: string, fromQuery = false): boolean {
  const given = fromQuery ? new URL(request.url).searchParams.get('key') : cookiesOf(request).get(SUPERVISOR_COOKIE);
  return given !== undefined && given !== null && sameKey(given, key);
}

/** The desk's keys: the supervisor's (printed in its address) and the one that signs customers' cookies. */
export interface DeskKeys {
  supervisor: string;
  cookie: string;
}

/** `authorize` for `createServer`: a customer, the supervisor acting for one, or `undefined` (401). Throwing answers 403. */
export function deskAuthorize(keys: DeskKeys): (request: Request, route: RouteInfo) => Principal | undefined {
  return (request, route) => {
    const onBehalf = request.headers.get(ON_BEHALF_HEADER);
    if (onBehalf === null) {
      const customer = customerOf(request, keys.cookie);
      return customer === undefined ? undefined : customerPrincipal(customer);
    }
    if (!isSupervisor(request, keys.supervisor)) throw new Error(`only the supervisor may send ${ON_BEHALF_HEADER}`);
    if (!validCustomerId(onBehalf)) throw new Error(`${ON_BEHALF_HEADER} is not a customer id`);
    if (!SUPERVISOR_ACTIONS.has(route.action))
      throw new Error('the supervisor reads conversations and answers what waits; messages come from customers');
    return { id: customerPrincipal(onBehalf), supervisor: true };
  };
}

/** `authorizeAnswer` for `createServer`: a person on the team (the supervisor) answers approvals, never a customer. */
export const deskAuthorizeAnswer: AuthorizeAnswer = ({ principal }) =>
  typeof principal === 'object' && principal['supervisor'] === true;

/** A key of the desk kept in `<dir>/<file>` (made on first start), so a restart keeps everyone signed in. */
export async function deskKey(dir: string, file: string): Promise<string> {
  const path = join(dir, file);
  try {
    const key = (await readFile(path, 'utf8')).trim();
    if (key.length >= 16) return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(18).toString('base64url');
  await mkdir(dir, { recursive: true });
  await writeFile(path, `${key}\n`, { mode: 0o600 });
  return key;
}

/** The desk's keys, in `<dir>/web-supervisor-key` and `<dir>/web-cookie-key`. */
export async function deskKeys(dir: string): Promise<DeskKeys> {
  return { supervisor: await deskKey(dir, 'web-supervisor-key'), cookie: await deskKey(dir, 'web-cookie-key') };
}
