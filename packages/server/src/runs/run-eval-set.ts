/**
 * One eval run of a target: `@skein/evals`' `evaluate()` (its runner, its scorers) on the target the
 * request routed, each case's run stored as a conversation of the principal in the server's store,
 * then the run kept with what changed against the previous one. `@skein/evals` is imported on the
 * first run: a server nobody asks to evaluate never loads it.
 */
import { randomBytes } from 'node:crypto';
import { nowIso } from '@skein/core';
import type { CaseResult, EvalCase, EvalSummary } from '@skein/evals';
import type { TargetRoute } from '../http/route-context.js';
import type { EvalSet } from '../options.js';
import type { ServerContext } from '../server-context.js';
import { closeCaseConversation, openCaseConversation } from '../store/eval-conversations.js';
import { readEvalRuns, writeEvalRun, type EvalChanges, type EvalRunRecord } from '../store/eval-runs.js';

/** Which cases a request asks for: any of these tags, any of these ids (both: either). */
interface EvalOnly {
  tags?: string[];
  cases?: string[];
}

/** Keeps a case the set's own filter keeps and that `only` names (all when `only` names nothing). */
function caseFilter(set: EvalSet, only: EvalOnly): (c: EvalCase) => boolean {
  const tags = only.tags ?? [];
  const ids = only.cases ?? [];
  const named = (c: EvalCase): boolean =>
    (tags.length === 0 && ids.length === 0) || ids.includes(c.id) || c.tags.some((t) => tags.includes(t));
  return (c) => (set.filter ? set.filter(c) : true) && named(c);
}

const passed = (summary: EvalSummary): Set<string> =>
  new Set(summary.cases.filter((c) => c.status === 'passed').map((c) => c.id));

/** What changed from `base` to `next` (pure but for `compare`, evals' own comparison). */
function changesOf(
  previous: EvalRunRecord,
  next: EvalSummary,
  compare: (
    base: EvalSummary,
    next: EvalSummary,
  ) => { regressions: { id: string }[]; improvements: { id: string }[]; added: string[]; removed: string[] },
): EvalChanges {
  const before = passed(previous.summary);
  const now = passed(next);
  const both = next.cases.filter((c) => previous.summary.cases.some((p) => p.id === c.id)).map((c) => c.id);
  const comparison = compare(previous.summary, next);
  return {
    previous: previous.id,
    fixed: both.filter((id) => !before.has(id) && now.has(id)),
    newlyFailing: both.filter((id) => before.has(id) && !now.has(id)),
    added: comparison.added,
    removed: comparison.removed,
    regressions: comparison.regressions.map((c) => c.id),
    improvements: comparison.improvements.map((c) => c.id),
  };
}

/** Runs `set` against `route`'s target for its principal; resolves with the stored run. */
export async function runEvalSet(
  ctx: ServerContext,
  route: TargetRoute,
  set: EvalSet,
  only: EvalOnly,
): Promise<EvalRunRecord> {
  const { evaluate, compareSummaries } = await import('@skein/evals');
  const factory = ctx.factory(route.kind, route.name);
  if (!factory) throw new Error(`${route.kind}/${route.name} has no factory.`);
  const sessions = ctx.options.sessions;
  const id = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const evaluation = `eval-${id}`;
  const startedAt = nowIso();
  const closing: Promise<void>[] = [];
  const report = await evaluate({
    ...set,
    name: evaluation,
    filter: caseFilter(set, only),
    sessions: { open: (conversationId) => sessions(ctx.sessionIdOf(route.owner, conversationId)) },
    target: async (tc) => {
      const sessionId = ctx.sessionIdOf(route.owner, tc.sessionId);
      const title = `eval ${set.name ?? id}: ${tc.evalCase.id}`;
      await openCaseConversation(sessions, route, tc.sessionId, sessionId, title);
      if (!tc.sessionManager) throw new Error('The eval run has no session manager.');
      return factory({
        conversationId: tc.sessionId,
        sessionId,
        principal: route.principal,
        sessionManager: tc.sessionManager,
      });
    },
    onResult: (result: CaseResult) => {
      if (result.run.sessionId)
        closing.push(closeCaseConversation(sessions, ctx.sessionIdOf(route.owner, result.run.sessionId), result));
    },
  });
  await Promise.all(closing);
  const previous = (await readEvalRuns(sessions, route.owner, route.kind, route.name)).at(-1);
  const record: EvalRunRecord = {
    id,
    evaluation,
    kind: route.kind,
    name: route.name,
    startedAt,
    endedAt: nowIso(),
    ...(only.tags || only.cases ? { only } : {}),
    summary: report.summary,
    ...(previous ? { changes: changesOf(previous, report.summary, compareSummaries) } : {}),
  };
  await writeEvalRun(sessions, route.owner, record);
  return record;
}
