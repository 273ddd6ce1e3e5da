import type { InspectorStore } from '../store/inspector-store.js';
import { listSessionSummaries } from '../view/session-summary.js';

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `:root { font: 14px/1.45 system-ui, sans-serif; color: #1d2330; background: #f7f8fa; }
body { margin: 0 auto; max-width: 1200px; padding: 16px 24px; overflow-wrap: anywhere; }
h1 { font-size: 20px; } ul { list-style: none; padding: 0; } li { background: #fff; border: 1px solid #dde1e8; border-radius: 6px; padding: 6px 10px; margin: 6px 0; }
.meta { color: #5b6476; } @media (max-width: 600px) { body { padding: 10px; } }`;

/** The page at `/`: the sessions in the store, each linking to its page (a server's own sessions only with `internal`). */
export async function indexPage(store: InspectorStore, internal = false): Promise<string> {
  const rows = (await listSessionSummaries(store, { internal }))
    .map((s) => {
      const runs = s.orchestrators.map((o) => `${o.type} ${o.id} ${o.status}`).join(', ');
      const tokens = s.tokens === undefined ? '' : ` · ${s.tokens} tokens`;
      return `<li><a href="/session/${encodeURIComponent(s.id)}/">${escape(s.id)}</a> <span class="meta">${escape(s.type)}${runs ? ` · ${escape(runs)}` : ''}${tokens} · ${escape(s.updatedAt ?? '-')}</span></li>`;
    })
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>skein · ${escape(store.label)}</title><link rel="icon" href="data:,"><style>${STYLE}</style></head><body><main><h1>Sessions in ${escape(store.label)}</h1><ul>${rows || '<li>none</li>'}</ul></main></body></html>`;
}
