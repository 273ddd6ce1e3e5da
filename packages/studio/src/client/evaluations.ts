/**
 * The Evaluations panel of a target's page: run the module's eval set against the target
 * (`POST /v1/{kind}/{name}/evals`, optionally only the cases with some tags), see each case passed
 * or failed with the scorers' reasons and a link to its run (a conversation of the studio), a
 * summary, and what changed against the previous run. The last run is read back on load (`GET`).
 */
import { getJson, postJson, type TargetInfo } from './api.js';
import { el } from './dom.js';

interface CaseRow {
  id: string;
  status: string;
  scores: Record<string, number>;
  reasons: Record<string, string>;
  sessionIds: string[];
  problem?: string;
}

/** One stored run, as the server answers it. */
interface EvalRun {
  id: string;
  endedAt: string;
  summary: {
    counts: Record<string, number>;
    scorers: { name: string; threshold: number }[];
    cases: CaseRow[];
  };
  changes?: {
    previous: string;
    fixed: string[];
    newlyFailing: string[];
    regressions: string[];
    improvements: string[];
  };
}

/** Why a case failed: the reasons of the scorers below their threshold (all of them when it passed). */
function reasonsOf(row: CaseRow, run: EvalRun): string {
  const failing = run.summary.scorers.filter((s) => (row.scores[s.name] ?? 1) < s.threshold).map((s) => s.name);
  const names = row.status === 'passed' || failing.length === 0 ? Object.keys(row.reasons) : failing;
  const text = names.map((n) => `${n}: ${row.reasons[n] ?? ''}`).join('\n');
  return [row.problem, text].filter(Boolean).join('\n') || '—';
}

const list = (ids: string[]): string => (ids.length ? ids.join(', ') : 'none');

/** The panel for `target`; `href` makes the link to a conversation of the target. */
export function evaluationsPanel(target: TargetInfo, href: (conversationId: string) => string): HTMLElement {
  const url = `/v1/${target.kind}/${encodeURIComponent(target.name)}/evals`;
  const tags = el('input', { id: 'eval-tags', type: 'text', 'aria-describedby': 'eval-tags-hint' });
  const hint = el('span', { id: 'eval-tags-hint', class: 'hint' }, 'comma-separated; empty runs every case');
  const run = el('button', { type: 'button', id: 'run-evals' }, 'Run evaluations');
  const status = el('p', { id: 'eval-status', role: 'status' });
  const summary = el('p', { id: 'eval-summary' });
  const changes = el('p', { id: 'eval-changes' });
  const table = el('div', { id: 'eval-results' });

  const show = (shown: EvalRun): void => {
    const c = shown.summary.counts;
    summary.textContent = `Run ${shown.id}: ${c['passed'] ?? 0} of ${c['cases'] ?? 0} cases passed, ${c['failed'] ?? 0} failed${c['flaky'] ? `, ${c['flaky']} flaky` : ''}${c['invalid'] ? `, ${c['invalid']} invalid` : ''}.`;
    const d = shown.changes;
    changes.textContent = d
      ? `Compared with run ${d.previous}: fixed: ${list(d.fixed)}; newly failing: ${list(d.newlyFailing)}; worse on some scorer: ${list(d.regressions)}; better: ${list(d.improvements)}.`
      : 'No previous run to compare with.';
    const rows = shown.summary.cases.map((row) => {
      const links = row.sessionIds.map((id, i) =>
        el('a', { href: href(id), 'aria-label': `open run ${i + 1} of ${row.id}` }, `open run ${i + 1}`),
      );
      return el(
        'tr',
        { class: row.status === 'passed' ? 'passed' : 'failed' },
        el('th', { scope: 'row' }, row.id),
        el('td', {}, row.status === 'passed' ? 'pass' : `FAIL (${row.status})`),
        el('td', { class: 'reasons' }, reasonsOf(row, shown)),
        el('td', {}, ...links),
      );
    });
    table.replaceChildren(
      el(
        'table',
        { class: 'eval-cases' },
        el('caption', {}, `Cases of run ${shown.id}`),
        el(
          'thead',
          {},
          el('tr', {}, ...['Case', 'Result', 'Reasons', 'Run'].map((h) => el('th', { scope: 'col' }, h))),
        ),
        el('tbody', {}, ...rows),
      ),
    );
  };

  run.addEventListener('click', () => {
    const only = tags.value
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    run.disabled = true;
    status.textContent = 'Running the eval set…';
    postJson<{ run: EvalRun }>(url, only.length ? { tags: only } : {})
      .then(({ run: done }) => {
        show(done);
        status.textContent = `Evaluation ${done.id} finished.`;
      })
      .catch((error: unknown) => {
        status.textContent = `Failed: ${error instanceof Error ? error.message : String(error)}`;
      })
      .finally(() => {
        run.disabled = false;
      });
  });

  const panel = el(
    'section',
    { class: 'panel evaluations', 'aria-labelledby': 'evals-title' },
    el('h3', { id: 'evals-title' }, 'Evaluations'),
  );
  if (!target.evals) {
    panel.append(el('p', {}, 'The module has no eval set: export evals from it (see the studio README).'));
    return panel;
  }
  panel.append(
    el('label', { for: 'eval-tags' }, 'Only cases tagged'),
    tags,
    hint,
    run,
    status,
    summary,
    changes,
    table,
  );
  getJson<{ runs: EvalRun[] }>(url)
    .then(({ runs }) => {
      const last = runs.at(-1);
      if (last) show(last);
    })
    .catch((error: unknown) => {
      status.textContent = `Failed: ${error instanceof Error ? error.message : String(error)}`;
    });
  return panel;
}
