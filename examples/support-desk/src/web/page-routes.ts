/**
 * The pages: `/` (the customer's chat, or the sign-in form), `/sign-in` and `/sign-out`,
 * `/supervisor` (`?key=` once, then a cookie), `/assets/*`, and `/inspect/{id}`, a conversation's
 * inspector page rendered from the store by `@skein/inspector` on each request (the supervisor's).
 */
import type { Context, Hono } from 'hono';
import type { InspectorStore } from '@skein/inspector';
import { KIND_OF, type DeskWebContext } from './desk-web.js';
import { CUSTOMER_COOKIE, SUPERVISOR_COOKIE, customerOf, isSupervisor, validCustomerId } from './identity.js';
import { customerPage, signInPage, supervisorKeyPage, supervisorPage } from './pages.js';

/** The pages allow the desk's own origin only: no CDN, no other network. */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

function html(c: Context, body: string, status: 200 | 400 | 401 | 404 = 200): Response {
  return c.body(body, status, { ...PAGE_HEADERS, 'content-type': 'text/html; charset=utf-8' });
}

const cookie = (name: string, value: string, maxAge?: number): string =>
  `${name}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Lax${maxAge === undefined ? '' : `; Max-Age=${maxAge}`}`;

function redirect(to: string, setCookie: string): Response {
  return new Response(null, { status: 303, headers: { location: to, 'set-cookie': setCookie } });
}

/** Adds the page routes; returns what closes the inspector's store. */
export function addPageRoutes(web: Hono, ctx: DeskWebContext): () => Promise<void> {
  const { options } = ctx;
  web.get('/', (c) => {
    const customer = customerOf(c.req.raw);
    if (customer === undefined) return html(c, signInPage());
    return html(c, customerPage(customer, options.shape, KIND_OF[options.shape]));
  });
  web.post('/sign-in', async (c) => {
    const form = await c.req.parseBody();
    const customer = typeof form['customer'] === 'string' ? form['customer'].trim() : '';
    if (!validCustomerId(customer))
      return html(c, signInPage('Use 1 to 64 letters, digits or the characters _ . @ - for your customer id.'), 400);
    return redirect('/', cookie(CUSTOMER_COOKIE, customer));
  });
  web.post('/sign-out', () => redirect('/', cookie(CUSTOMER_COOKIE, '', 0)));
  web.get('/supervisor', (c) => {
    if (isSupervisor(c.req.raw, options.supervisorKey, true))
      return redirect('/supervisor', cookie(SUPERVISOR_COOKIE, options.supervisorKey));
    if (!isSupervisor(c.req.raw, options.supervisorKey)) return html(c, supervisorKeyPage(), 401);
    return html(c, supervisorPage());
  });
  web.get('/assets/:name', (c) => {
    const asset = options.assets.get(c.req.param('name'));
    if (!asset) return c.text('No such asset', 404);
    return c.body(asset.body as Uint8Array<ArrayBuffer>, 200, {
      'content-type': asset.type,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    });
  });
  let store: InspectorStore | undefined;
  web.get('/inspect/:id', async (c) => {
    if (!isSupervisor(c.req.raw, options.supervisorKey)) return html(c, supervisorKeyPage(), 401);
    const id = c.req.param('id');
    if (!(await ctx.directory.get(id))) return c.text(`No conversation ${id}`, 404);
    const { loadSession, openStore, pageData, renderHtmlPage } = await import('@skein/inspector');
    store ??= openStore(options.sessions.inspectorSpec);
    // The inspector's page carries its own Content-Security-Policy (inline script and style, no network).
    return c.html(renderHtmlPage(pageData(await loadSession(store, id))));
  });
  return async () => {
    await store?.close();
  };
}
