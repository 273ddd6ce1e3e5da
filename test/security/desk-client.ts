/** A customer, a supervisor or an attacker talking to a running `npm run desk:web` on raw HTTP. */
import { raw, type RawResponse } from './raw-http.js';

/** Signs `customer` in through the form, as the browser does; the cookie header to send. */
export async function signIn(port: number, customer: string): Promise<string> {
  const response = await raw(port, {
    method: 'POST',
    path: '/sign-in',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ customer }).toString(),
  });
  const set = response?.headers['set-cookie']?.[0];
  if (response?.status !== 303 || !set) throw new Error(`sign-in of ${customer} failed: ${response?.status}`);
  return set.split(';')[0] as string;
}

/** The supervisor's cookie, from the address the desk printed. */
export function supervisorCookie(supervisorUrl: string): string {
  return `desk-supervisor=${new URL(supervisorUrl).searchParams.get('key') ?? ''}`;
}

/** A JSON request; `body` as text is sent as it is. */
export function call(
  port: number,
  method: string,
  path: string,
  cookie: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse | undefined> {
  return raw(port, {
    method,
    path,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

/** The parsed JSON of an answer (throws when there is none). */
export function jsonOf<T>(response: RawResponse | undefined): T {
  if (!response) throw new Error('no answer');
  return JSON.parse(response.body) as T;
}
