/**
 * Runs one case once: builds the target, sends each customer turn, answers what the run asks from
 * the turn's scripted answers, and records what happened as a `CaseRun`.
 */
import {
  emptySpend,
  errorMessage,
  isAgent,
  isAgentResult,
  type Agent,
  type BudgetScope,
  type Prompt,
  type SessionManager,
} from '@skein/core';
import type { EvalSessions } from '../runner/evaluate-options.js';
import type { EvalCase, EvalTurn } from '../case/eval-case.js';
import { answerInterrupts } from './answer-interrupts.js';
import type { CaseRun, InterruptRecord, TurnRun } from './case-run.js';
import { interruptsOf, statusOf, structuredOutputOf, textOf, trajectoryOf, type AnyResult } from './outcome-of.js';
import { isTargetRun, type EvalTarget, type Runnable, type TargetRun } from './target.js';
import { observeTools, type ToolObserver } from './tool-observer.js';
import { agentsOf } from './walk.js';

export interface RunCaseParams {
  evalCase: EvalCase;
  repeat: number;
  sessionId: string;
  /** Opens the run's session manager (closed after the run). */
  sessions: EvalSessions | undefined;
  target: EvalTarget;
  /** Where the run draws from the evaluation's budget. */
  scope: BudgetScope;
  signal: AbortSignal | undefined;
}

const invoke = (
  runnable: Runnable,
  prompt: Prompt,
  scope: BudgetScope,
  signal: AbortSignal | undefined,
): Promise<AnyResult> => {
  const options = { budget: scope, ...(signal ? { signal } : {}) };
  return isAgent(runnable) ? runnable.invoke(prompt, options) : runnable.invoke(prompt, options);
};

/** Mutable record of the run so far (kept when the target throws midway). */
interface Progress {
  run: CaseRun;
  built?: TargetRun;
  observer?: ToolObserver;
}

/** One turn: the customer's input, then a resume per round of answered interrupts. */
async function runTurn(p: RunCaseParams, progress: Progress, turn: EvalTurn): Promise<TurnRun> {
  const { run } = progress;
  const built = progress.built as TargetRun;
  const firstCall = progress.observer?.calls.length ?? 0;
  const used = new Set<number>();
  let result = await invoke(built.runnable, turn.input, p.scope, p.signal);
  let unanswered: InterruptRecord[] = [];
  for (let asked = interruptsOf(result); asked.length > 0; asked = interruptsOf(result)) {
    const answered = answerInterrupts(asked, turn.answers ?? [], used);
    run.interrupts.push(...answered.records);
    if (!answered.prompt) {
      unanswered = answered.records.filter((r) => r.answer === undefined);
      break;
    }
    result = await invoke(built.runnable, answered.prompt, p.scope, p.signal);
  }
  const text = built.answer ? built.answer(result) : textOf(result);
  const turnRun: TurnRun = { input: turn.input, text, status: statusOf(result) };
  if (isAgentResult(result)) {
    const agent = built.runnable as Agent;
    const consulted = (progress.observer?.calls.slice(firstCall) ?? []).flatMap((c) => {
      const behind = progress.observer?.agentBehind(c);
      return behind && c.agent === agent.name ? [behind] : [];
    });
    run.nodes.push(agent.name, ...consulted);
    if (result.handoff) run.handoffs.push({ from: agent.name, to: result.handoff.target.name });
    const structured = structuredOutputOf(result);
    if (structured !== undefined) run.structuredOutput = structured;
  } else {
    const path = trajectoryOf(result.transitions);
    run.nodes.push(...path.nodes);
    run.handoffs.push(...path.handoffs);
    turnRun.transitions = result.transitions;
    if (result.failureReason) turnRun.failureReason = result.failureReason;
  }
  if (unanswered.length > 0)
    turnRun.failureReason = `no scripted answer for ${unanswered.map((r) => `${r.name}${r.tool ? ` (${r.tool})` : ''}`).join(', ')}`;
  return turnRun;
}

/** Runs the case's turns in order; a turn that does not complete ends the case. */
export async function runCase(p: RunCaseParams): Promise<CaseRun> {
  const run: CaseRun = {
    caseId: p.evalCase.id,
    repeat: p.repeat,
    sessionId: p.sessionId,
    status: 'completed',
    text: '',
    turns: [],
    nodes: [],
    handoffs: [],
    toolCalls: [],
    interrupts: [],
    usage: emptySpend(),
  };
  const progress: Progress = { run };
  const started = performance.now();
  let sessionManager: SessionManager | undefined;
  try {
    sessionManager = p.sessions?.open(p.sessionId);
    const made = await p.target({
      evalCase: p.evalCase,
      repeat: p.repeat,
      sessionId: p.sessionId,
      sessionManager,
      signal: p.signal,
    });
    progress.built = isTargetRun(made) ? made : { runnable: made };
    progress.observer = observeTools(agentsOf(progress.built.runnable));
    run.toolCalls = progress.observer.calls;
    for (const turn of p.evalCase.turns) {
      const turnRun = await runTurn(p, progress, turn);
      run.turns.push(turnRun);
      run.text = turnRun.text;
      run.status = turnRun.status;
      if (turnRun.status !== 'completed') {
        if (turnRun.failureReason && turnRun.status !== 'interrupted') run.error = turnRun.failureReason;
        break;
      }
    }
  } catch (error) {
    run.status = 'error';
    run.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } finally {
    progress.observer?.detach();
    run.usage = { ...p.scope.spend, wallMs: Math.round(performance.now() - started) };
    await closeQuietly(run, () => progress.built?.close?.());
    await closeQuietly(run, () => sessionManager?.close?.());
  }
  if (!p.sessions) delete run.sessionId;
  return run;
}

/** Runs a cleanup; a failure marks the run as an error instead of losing it. */
async function closeQuietly(run: CaseRun, close: () => unknown): Promise<void> {
  try {
    await close();
  } catch (error) {
    run.status = 'error';
    run.error ??= `closing failed: ${errorMessage(error)}`;
  }
}
