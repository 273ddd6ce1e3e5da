/**
 * The page of an evaluation: one self-contained HTML document (no script, no network) with the
 * totals, each scorer's mean, a table of cases by scorer, and each case's runs with their reasons and
 * links to the runs' own pages.
 */
import type { StoredEvaluation } from '@skein/evals';
import { caseHtml, esc, scoreCell } from './eval-case-html.js';

const STYLE = `
:root { font: 14px/1.45 system-ui, sans-serif; color: #1d2330; background: #f7f8fa; }
body { margin: 0 auto; max-width: 1200px; padding: 16px 24px; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 24px 0 6px; }
.meta { color: #5b6476; margin: 2px 0; }
table { border-collapse: collapse; background: #fff; } th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid #e6e9ef; vertical-align: top; }
td.score { text-align: right; font-variant-numeric: tabular-nums; } .pass, td.score.pass { color: #2e7d3e; } .fail, td.score.fail { color: #b3261e; } td.score.none { color: #9aa4b5; }
.status { font-weight: 600; } .status.passed { color: #2e7d3e; } .status.failed, .status.invalid { color: #b3261e; } .status.flaky, .status.notRun { color: #9a6b00; }
details.case { background: #fff; border: 1px solid #dde1e8; border-radius: 6px; margin: 6px 0; padding: 6px 10px; }
.tags { color: #5b6476; font-size: 12px; } table.run { width: 100%; margin: 8px 0; } table.run caption { text-align: left; font-weight: 600; color: #4a5468; }
table.run th { width: 90px; color: #4a5468; font-weight: 600; } .said::before { content: 'customer: '; color: #5b6476; } .answer::before { content: 'reply: '; color: #5b6476; }
.call.error { color: #9a6b00; } .call.pending { color: #9aa4b5; }
`;

/** Where each run's page is: a relative link, or `undefined` (not exported). */
export type RunHref = (sessionId: string) => string | undefined;

export function renderEvalPage(evaluation: StoredEvaluation, hrefOf: RunHref = () => undefined): string {
  const { summary, results } = evaluation;
  const { counts, totals } = summary;
  const scorerRows = summary.scorers
    .map(
      (s) =>
        `<tr><td>${esc(s.name)}</td>${scoreCell(s.runs ? s.mean : undefined, s.threshold)}<td>${Math.round(s.passRate * s.runs)}/${s.runs}</td><td>${s.threshold}</td></tr>`,
    )
    .join('');
  const caseRows = summary.cases
    .map(
      (c) =>
        `<tr><td><a href="#case-${esc(c.id)}">${esc(c.id)}</a></td><td><span class="status ${esc(c.status)}">${esc(c.status)}</span></td>${summary.repeats > 1 ? `<td>${c.passes}/${c.runs}</td>` : ''}${summary.scorers.map((s) => scoreCell(c.scores[s.name], s.threshold)).join('')}</tr>`,
    )
    .join('');
  const sections = summary.cases
    .map((c) =>
      caseHtml(
        c,
        results.filter((r) => r.caseId === c.id),
        summary.scorers,
        hrefOf,
      ),
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>skein · evaluation ${esc(summary.name)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Evaluation ${esc(summary.name)}: <span class="status ${summary.passed ? 'passed' : 'failed'}">${summary.passed ? 'all passed' : 'not all passed'}</span></h1>
<p class="meta">${counts.cases} cases, ${counts.runs} runs${summary.repeats > 1 ? ` (${summary.repeats} per case, pass@${summary.passAtK})` : ''}: ${counts.passed} passed, ${counts.failed} failed, ${counts.flaky} flaky, ${counts.notRun} not run, ${counts.invalid} invalid</p>
<p class="meta">${totals.totalTokens} tokens, ${totals.modelCalls} model calls, ${totals.toolCalls} tool calls${totals.costUsd ? `, $${totals.costUsd.toFixed(4)}` : ''}, ${(totals.wallMs / 1000).toFixed(1)} s of runs · ${esc(evaluation.file)}</p>
<h2>Scorers</h2>
<table class="scorers"><tr><th>scorer</th><th>mean</th><th>passed</th><th>threshold</th></tr>${scorerRows}</table>
<h2>Cases</h2>
<table class="cases"><tr><th>case</th><th>status</th>${summary.repeats > 1 ? '<th>passed</th>' : ''}${summary.scorers.map((s) => `<th>${esc(s.name)}</th>`).join('')}</tr>${caseRows}</table>
<h2>Runs</h2>
${sections}
</body>
</html>
`;
}
