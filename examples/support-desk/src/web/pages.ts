/**
 * The pages' HTML: small static documents that load the desk's own script and style. Everything the
 * server puts in them is escaped; the Content-Security-Policy (see `desk-web.ts`) allows nothing but
 * the desk's own origin.
 */
import type { DeskShape } from '../desk.js';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string, script?: string, bodyData = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/desk.css">
${script ? `<script type="module" src="/assets/${script}"></script>\n` : ''}</head>
<body${bodyData}>
${body}
</body>
</html>
`;
}

/** The customer's sign-in: the id stands in for a real login. */
export function signInPage(problem?: string): string {
  return page(
    'Support desk: sign in',
    `<main class="narrow">
<h1>Support desk</h1>
<p>Sign in with your customer id to talk to the desk.</p>
<form method="post" action="/sign-in" class="stack">
<label for="customer">Customer id</label>
<input id="customer" name="customer" required maxlength="64" pattern="[A-Za-z0-9_.@\\-]+" autocomplete="username"${problem ? ' aria-describedby="problem" aria-invalid="true"' : ''}>
${problem ? `<p id="problem" class="problem">${escapeHtml(problem)}</p>\n` : ''}<button type="submit">Sign in</button>
</form>
</main>`,
  );
}

/** The customer's chat. */
export function customerPage(customer: string, shape: DeskShape, kind: string): string {
  return page(
    'Support desk',
    `<header class="top">
<h1>Support desk</h1>
<form method="post" action="/sign-out" class="who"><span>Signed in as <strong>${escapeHtml(customer)}</strong></span> <button type="submit">Sign out</button></form>
</header>
<main class="customer">
<nav aria-labelledby="conversations-title" class="conversations">
<h2 id="conversations-title">Your conversations</h2>
<ul id="conversations"></ul>
<button type="button" id="new-conversation">New conversation</button>
</nav>
<section aria-labelledby="chat-title" class="chat">
<h2 id="chat-title">Conversation</h2>
<div id="log" role="log" aria-live="polite" aria-labelledby="chat-title"></div>
<p id="status" role="status"></p>
<form id="composer" class="composer">
<label for="message">Your message</label>
<div class="row"><input id="message" name="message" autocomplete="off" required maxlength="4000" autofocus><button type="submit" id="send" disabled>Send</button></div>
</form>
<p id="budget" aria-live="off"></p>
<p id="alert" role="alert"></p>
</section>
</main>`,
    'customer.js',
    ` data-customer="${escapeHtml(customer)}" data-shape="${shape}" data-kind="${kind}"`,
  );
}

/** The supervisor's page of what waits. */
export function supervisorPage(): string {
  return page(
    'Support desk: supervisor',
    `<header class="top"><h1>Support desk: supervisor</h1></header>
<main class="supervisor">
<section aria-labelledby="waiting-title">
<h2 id="waiting-title">Waiting for a person</h2>
<p id="waiting-status" role="status"></p>
<ul id="waiting" class="waiting"></ul>
</section>
<section aria-labelledby="all-title">
<h2 id="all-title">All conversations</h2>
<table id="conversations" class="cards">
<caption class="visually-hidden">Every conversation, newest first, named by its first message, with its inspector page</caption>
<thead><tr><th scope="col">Customer</th><th scope="col">Conversation</th><th scope="col">Status</th><th scope="col">Started</th></tr></thead>
<tbody></tbody>
</table>
</section>
<p id="alert" role="alert"></p>
</main>`,
    'supervisor.js',
  );
}

/** The supervisor page without the key. */
export function supervisorKeyPage(): string {
  return page(
    'Support desk: supervisor',
    `<main class="narrow"><h1>Supervisor</h1><p>Open the supervisor address the desk printed when it started (it carries the key).</p></main>`,
  );
}
