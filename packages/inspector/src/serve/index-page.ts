import type { InspectorStore } from '../store/inspector-store.js';
import { listSessionSummaries } from '../view/session-summary.js';

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page at `/`: the sessions in the store, each linking to its page. */
export async function indexPage(store: InspectorStore): Promise<string> {
  const rows = (await listSessionSummaries(store))
    .map(
      (s) =>
        `<li><a href="/session/${encodeURIComponent(s.id)}/">${escape(s.id)}</a> ${escape(s.type)} · ${escape(s.orchestrators.map((o) => `${o.type} ${o.id} ${o.status}`).join(', '))} · ${escape(s.updatedAt ?? '-')}</li>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>skein · ${escape(store.label)}</title></head><body><h1>Sessions in ${escape(store.label)}</h1><ul>${rows || '<li>none</li>'}</ul></body></html>`;
}
