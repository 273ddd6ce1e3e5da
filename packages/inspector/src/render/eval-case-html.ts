/**
 * The HTML of one case of an evaluation: its scores with their reasons, and for each run what it did
 * (answer, path, tool calls, questions asked) with a link to the run's own page. Every stored text is
 * escaped.
 */
import type { CaseResult, CaseSummary, ScorerSummary } from '@skein/evals';

export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const json = (v: unknown): string => {
  const text = JSON.stringify(v) ?? '';
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
};

/** A score as a coloured cell: passed, below its threshold, or not scored. */
export function scoreCell(score: number | undefined, threshold: number): string {
  if (score === undefined) return '<td class="score none">-</td>';
  return `<td class="score ${score >= threshold ? 'pass' : 'fail'}">${score.toFixed(2)}</td>`;
}

function runHtml(result: CaseResult, href: string | undefined): string {
  const { run } = result;
  const rows: string[] = [];
  const add = (label: string, value: string): void => {
    if (value) rows.push(`<tr><th>${label}</th><td>${value}</td></tr>`);
  };
  add(
    'status',
    `<span class="status ${esc(result.passed ? 'passed' : 'failed')}">${esc(run.status)}</span>${run.error ? ` ${esc(run.error)}` : ''}`,
  );
  for (const [i, turn] of run.turns.entries())
    add(
      `turn ${i + 1}`,
      `<div class="said">${esc(turn.input)}</div><div class="answer">${esc(turn.text || `(${turn.status})`)}</div>`,
    );
  add('ran', esc(run.nodes.join(' › ')));
  add('handoffs', esc(run.handoffs.map((h) => `${h.from} › ${h.to}`).join(', ')));
  add(
    'tools',
    run.toolCalls
      .map(
        (c) => `<div class="call ${esc(c.status)}">${esc(`${c.agent}: ${c.name}(${json(c.input)}) ${c.status}`)}</div>`,
      )
      .join(''),
  );
  add(
    'asked',
    run.interrupts
      .map(
        (q) =>
          `<div>${esc(`${q.name}${q.tool ? ` for ${q.tool}` : ''} ${json(q.input ?? q.reason)} → ${json(q.answer ?? 'no answer')}`)}</div>`,
      )
      .join(''),
  );
  add(
    'scores',
    Object.entries(result.scores)
      .map(
        ([name, s]) =>
          `<div class="${s.passed ? 'pass' : 'fail'}"><b>${esc(name)} ${s.score.toFixed(2)}</b> ${esc(s.reason)}</div>`,
      )
      .join(''),
  );
  const u = run.usage;
  add('spent', esc(`${u.totalTokens} tokens, ${u.modelCalls} model calls, ${u.toolCalls} tool calls, ${u.wallMs} ms`));
  const session = run.sessionId ? (href ? `<a href="${esc(href)}">${esc(run.sessionId)}</a>` : esc(run.sessionId)) : '';
  add('run', session);
  return `<table class="run"><caption>run ${result.repeat + 1}${result.attempt > 1 ? ` (attempt ${result.attempt})` : ''}</caption>${rows.join('')}</table>`;
}

/** A case's section: its summary line, then each of its runs. */
export function caseHtml(
  c: CaseSummary,
  results: readonly CaseResult[],
  scorers: readonly ScorerSummary[],
  hrefOf: (sessionId: string) => string | undefined,
): string {
  const open = c.status === 'passed' ? '' : ' open';
  const reasons = scorers
    .filter((s) => c.scores[s.name] !== undefined && (c.scores[s.name] ?? 0) < s.threshold)
    .map((s) => `<div class="fail"><b>${esc(s.name)}</b> ${esc(c.reasons[s.name] ?? '')}</div>`)
    .join('');
  const runs = results.map((r) => runHtml(r, r.run.sessionId ? hrefOf(r.run.sessionId) : undefined)).join('');
  return `<details class="case ${esc(c.status)}" id="case-${esc(c.id)}"${open}><summary><span class="status ${esc(c.status)}">${esc(c.status)}</span> ${esc(c.id)} <span class="tags">${esc(c.tags.join(' '))}</span></summary>${c.problem ? `<p class="fail">${esc(c.problem)}</p>` : ''}${reasons}${runs}</details>`;
}
