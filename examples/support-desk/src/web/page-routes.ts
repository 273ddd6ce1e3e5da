/**
 * The pages: `/` (the customer's chat, or the sign-in form), `/sign-in` and `/sign-out`,
 * `/supervisor` (`?key=` once, then a cookie), `/assets/*`, and `/inspect/{sessionId}`, a
 * conversation's inspector page rendered from the store by `@skein/inspector` on each request (the
 * supervisor's). Every answer carries the security headers; every body is bounded before it is read.
 */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { InspectorStore } from '@skein/inspector';
import { KIND_OF, type DeskWebContext } from './desk-web.js';
import {
  CUSTOMER_COOKIE,
  SUPERVISOR_COOKIE,
  customerCookieValue,
  customerOf,
  isSupervisor,
  validCustomerId,
} from './identity.js';
import { customerPage, signInPage, supervisorKeyPage, supervisorPage } from './pages.js';

/** The pages allow the desk's own origin only: no CDN, no other network, never framed. */
const PAGE_CSP =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** The largest body the desk's own routes read (a sign-in form is a few bytes). */
const MAX_FORM_BYTES = 4 * 1024;

function html(c: Context, body: string, status: 200 | 400 | 401 | 404 = 200, csp = PAGE_CSP): Response {
  return c.body(body, status, {
    ...SECURITY_HEADERS,
    'content-security-policy': csp,
    'content-type': 'text/html; charset=utf-8',
  });
}

const cookie = (name: string, value: string, maxAge?: number): string =>
  `${name}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Lax${maxAge === undefined ? '' : `; Max-Age=${maxAge}`}`;

function redirect(to: string, setCookie: string): Response {
  return new Response(null, { status: 303, headers: { ...SECURITY_HEADERS, location: to, 'set-cookie': setCookie } });
}

/** Adds the page routes; returns what closes the inspector's store. */
export function addPageRoutes(web: Hono, ctx: DeskWebContext): () => Promise<void> {
  const { options } = ctx;
  const tooLarge = (c: Context): Response =>
    c.text(`The body is larger than ${MAX_FORM_BYTES} bytes.`, 413, SECURITY_HEADERS);
  for (const path of ['/', '/sign-in', '/sign-out', '/supervisor', '/assets/*', '/inspect/*', '/desk/*'])
    web.use(path, bodyLimit({ maxSize: MAX_FORM_BYTES, onError: tooLarge }));
  web.get('/', (c) => {
    const customer = customerOf(c.req.raw, options.keys.cookie);
    if (customer === undefined) return html(c, signInPage());
    return html(c, customerPage(customer, options.shape, KIND_OF[options.shape]));
  });
  web.post('/sign-in', async (c) => {
    const form = await c.req.parseBody();
    const customer = typeof form['customer'] === 'string' ? form['customer'].trim() : '';
    if (!validCustomerId(customer))
      return html(c, signInPage('Use 1 to 64 letters, digits or the characters _ . @ - for your customer id.'), 400);
    return redirect('/', cookie(CUSTOMER_COOKIE, customerCookieValue(customer, options.keys.cookie)));
  });
  web.post('/sign-out', () => redirect('/', cookie(CUSTOMER_COOKIE, '', 0)));
  web.get('/supervisor', (c) => {
    if (isSupervisor(c.req.raw, options.keys.supervisor, true))
      return redirect('/supervisor', cookie(SUPERVISOR_COOKIE, options.keys.supervisor));
    if (!isSupervisor(c.req.raw, options.keys.supervisor)) return html(c, supervisorKeyPage(), 401);
    return html(c, supervisorPage());
  });
  web.get('/assets/:name', (c) => {
    const asset = options.assets.get(c.req.param('name'));
    if (!asset) return c.text('No such asset', 404, SECURITY_HEADERS);
    return c.body(asset.body as Uint8Array<ArrayBuffer>, 200, {
      ...SECURITY_HEADERS,
      'content-type': asset.type,
      'cache-control': 'no-cache',
    });
  });
  let store: InspectorStore | undefined;
  web.get('/inspect/:sessionId', async (c) => {
    if (!isSupervisor(c.req.raw, options.keys.supervisor)) return html(c, supervisorKeyPage(), 401);
    const sessionId = c.req.param('sessionId');
    if (!(await ctx.directory.get(sessionId))) return c.text('No such conversation', 404, SECURITY_HEADERS);
    const {
      loadSession,
      openStore,
      pageData,
      renderHtmlPage,
      PAGE_CSP: INSPECTOR_CSP,
    } = await import('@skein/inspector');
    store ??= openStore(options.sessions.inspectorSpec);
    const page = renderHtmlPage(pageData(await loadSession(store, sessionId)));
    return html(c, page, 200, `${INSPECTOR_CSP}; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`);
  });
  return async () => {
    await store?.close();
  };
}
