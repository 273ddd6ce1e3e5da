/**
 * The studio page's script: the targets the module declares as links, and the page of the one the
 * address names (`#/<kind>/<name>/<conversation id>`).
 */
import { getJson, type TargetInfo } from './api.js';
import { byId, el } from './dom.js';
import { renderTarget } from './target-page.js';

const main = byId<HTMLElement>('studio');
const nav = byId<HTMLElement>('targets');
let pending: 'continue' | undefined;

async function start(): Promise<void> {
  const { targets } = await getJson<{ targets: TargetInfo[] }>('/studio/targets');
  nav.replaceChildren(
    el(
      'ul',
      {},
      ...targets.map((t) => el('li', {}, el('a', { href: `#/${t.kind}/${t.name}` }, `${t.kind}/${t.name}`))),
    ),
  );
  const open = async (): Promise<void> => {
    const [kind, name, id] = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
    const target = targets.find((t) => t.kind === kind && t.name === name) ?? targets[0];
    if (!target) return void main.replaceChildren(el('p', {}, 'The module declares no target.'));
    const conversationId = id || `c-${Date.now().toString(36)}`;
    const then = pending;
    pending = undefined;
    for (const link of nav.querySelectorAll('a'))
      link.toggleAttribute('aria-current', link.getAttribute('href') === `#/${target.kind}/${target.name}`);
    await renderTarget(
      main,
      target,
      conversationId,
      (next, after) => {
        pending = after;
        location.hash = `#/${target.kind}/${target.name}/${encodeURIComponent(next)}`;
      },
      then,
    );
  };
  window.addEventListener('hashchange', () => void open());
  await open();
}

start().catch((error: unknown) => {
  main.replaceChildren(el('p', { role: 'alert' }, `The studio could not start: ${String(error)}`));
});
