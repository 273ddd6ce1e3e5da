// Running
export { evaluate } from './runner/evaluate.js';
export type { EvalReport } from './runner/evaluate.js';
export type { EvalSessions, EvaluateOptions } from './runner/evaluate-options.js';
export type { CaseResult, EvalHeader, LogLine, ScoreEntry, StartLine } from './runner/results-log.js';
export type { EvalTarget, Runnable, TargetContext, TargetRun } from './run/target.js';
export type { CaseRun, InterruptRecord, RunStatus, ToolCallRecord, TurnRun } from './run/case-run.js';
export type { AnyResult } from './run/outcome-of.js';

// Cases
export type {
  AnswerExpectation,
  CaseInput,
  CostLimits,
  EvalCase,
  EvalTurn,
  Expectations,
  InterruptAnswer,
  InterruptExpectation,
  JudgeExpectation,
  MatchMode,
  SchemaLike,
  ToolCallExpectation,
  ToolExpectation,
  TrajectoryExpectation,
} from './case/eval-case.js';
export { checkCases } from './case/check-cases.js';
export type { CaseSource, CheckedCase } from './case/check-cases.js';
export { parseCaseLines, readCaseFile } from './case/read-case-file.js';
export { parseCases } from './case/parse-cases.js';

// Scorers
export { scorer } from './scorers/scorer.js';
export type { ScoreContext, ScoreResult, Scorer } from './scorers/scorer.js';
export { scoreTrajectory, trajectory } from './scorers/trajectory.js';
export type { TrajectoryScorerOptions } from './scorers/trajectory.js';
export { scoreToolCalls, toolCalls } from './scorers/tool-calls.js';
export type { ToolCallsScorerOptions } from './scorers/tool-calls.js';
export { interrupts, scoreInterrupts } from './scorers/interrupts.js';
export type { InterruptsScorerOptions } from './scorers/interrupts.js';
export { answer, scoreAnswer } from './scorers/answer.js';
export type { AnswerScorerOptions } from './scorers/answer.js';
export { cost, scoreCost } from './scorers/cost.js';
export type { CostScorerOptions } from './scorers/cost.js';
export { JUDGE_SYSTEM_PROMPT, judge, judgePrompt } from './scorers/judge.js';
export type { JudgeScorer, JudgeScorerOptions } from './scorers/judge.js';
export { matchSequence } from './scorers/match-sequence.js';
export { argsMismatch } from './scorers/match-args.js';

// Reports
export { summarize } from './report/summarize.js';
export type { CaseStatus, CaseSummary, EvalSummary, ScorerSummary } from './report/summarize.js';
export { compareSummaries } from './report/compare.js';
export type { CaseChange, CompareOptions, EvalComparison, ScorerChange } from './report/compare.js';
export { formatComparison, formatSummary } from './report/format-text.js';
export type { FormatOptions } from './report/format-text.js';
export { loadResults } from './report/load-results.js';
export type { StoredEvaluation } from './report/load-results.js';
export { passAtK } from './report/pass-at-k.js';

// Errors
export { EvalCaseError, EvalResultsError } from './errors.js';
