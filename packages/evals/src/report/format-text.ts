/** Plain-text views of a summary and a comparison, for terminals and CI logs (pure). */
import type { EvalComparison } from './compare.js';
import type { CaseSummary, EvalSummary } from './summarize.js';

const fixed = (n: number | undefined): string => (n === undefined ? '-' : n.toFixed(2));
const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 3)}...` : s);
const MARK: Record<CaseSummary['status'], string> = {
  passed: 'ok',
  failed: 'FAIL',
  flaky: 'FLAKY',
  notRun: 'NOT RUN',
  invalid: 'INVALID',
};

/** How a summary is printed. */
export interface FormatOptions {
  /** The command that shows a stored run, before `show <store> <session>`; default `npx skein` (`npm run skein --` inside the skein repository). */
  showCommand?: string;
}

function caseLines(c: CaseSummary, summary: EvalSummary, show: string): string[] {
  const head = `  ${MARK[c.status]} ${c.id}${c.tags.length ? ` [${c.tags.join(' ')}]` : ''}`;
  const lines = [
    summary.repeats > 1 ? `${head}  passed ${c.passes}/${c.runs}, pass@${summary.passAtK} ${fixed(c.passAtK)}` : head,
  ];
  if (c.problem) lines.push(`      ${cut(c.problem, 400)}`);
  for (const [name, score] of Object.entries(c.scores)) {
    const threshold = summary.scorers.find((s) => s.name === name)?.threshold ?? 1;
    if (c.status === 'failed' || c.status === 'flaky' ? score < 1 : score < threshold)
      // Whole: a reason names the value that did not match, often at its end.
      lines.push(`      ${name} ${fixed(score)}: ${c.reasons[name] ?? ''}`);
  }
  const session = c.sessionIds.at(-1);
  if (session && c.status !== 'passed')
    lines.push(`      run: ${session}${summary.store ? ` (${show} show ${summary.store} ${session})` : ''}`);
  return lines;
}

/** The summary as text: counts, each scorer, the cases that did not pass (each reason whole, the command that shows the run), totals. */
export function formatSummary(summary: EvalSummary, options: FormatOptions = {}): string {
  const show = options.showCommand ?? 'npx skein';
  const { counts } = summary;
  const t = summary.totals;
  const lines = [
    `evaluation ${summary.name}: ${counts.cases} cases, ${counts.runs} runs${summary.repeats > 1 ? ` (${summary.repeats} per case)` : ''}: ${summary.passed ? 'all passed' : 'NOT all passed'}`,
    `  passed ${counts.passed}  failed ${counts.failed}  flaky ${counts.flaky}  not run ${counts.notRun}  invalid ${counts.invalid}`,
    'scorers:',
    ...summary.scorers.map(
      (s) =>
        `  ${s.name.padEnd(12)} mean ${fixed(s.runs ? s.mean : undefined)}  passed ${Math.round(s.passRate * s.runs)}/${s.runs}  (threshold ${s.threshold})`,
    ),
  ];
  const shown = summary.cases.filter((c) => c.status !== 'passed');
  if (shown.length) lines.push('cases that did not pass:', ...shown.flatMap((c) => caseLines(c, summary, show)));
  lines.push(
    `totals: ${t.totalTokens} tokens (${t.inputTokens} in, ${t.outputTokens} out), ${t.modelCalls} model calls, ${t.toolCalls} tool calls${t.costUsd ? `, $${t.costUsd.toFixed(4)}` : ''}, ${(t.wallMs / 1000).toFixed(1)} s of runs`,
  );
  return `${lines.join('\n')}\n`;
}

export function formatComparison(c: EvalComparison): string {
  const lines = ['scorers (base -> new):'];
  for (const s of c.scorers)
    lines.push(
      `  ${s.name.padEnd(12)} ${fixed(s.base)} -> ${fixed(s.next)}  ${s.delta >= 0 ? '+' : ''}${s.delta.toFixed(2)}${s.dropped ? `  DROPPED (more than ${c.threshold})` : ''}`,
    );
  const changes = (title: string, list: EvalComparison['regressions']): void => {
    if (list.length === 0) return;
    lines.push(`${title} (${list.length}):`);
    for (const x of list) {
      lines.push(`  ${x.id}: ${x.base.status} -> ${x.next.status}`);
      for (const s of x.scores) lines.push(`      ${s.name} ${fixed(s.base)} -> ${fixed(s.next)}: ${s.reason}`);
    }
  };
  changes('regressions', c.regressions);
  changes('improvements', c.improvements);
  if (c.added.length) lines.push(`new cases: ${c.added.join(', ')}`);
  if (c.removed.length) lines.push(`cases no longer there: ${c.removed.join(', ')}`);
  lines.push(
    c.failed
      ? "FAILED: a scorer's mean dropped more than the threshold"
      : `ok: no scorer's mean dropped more than ${c.threshold}`,
  );
  return `${lines.join('\n')}\n`;
}
