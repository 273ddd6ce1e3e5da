/**
 * The judge scorer: an LLM on any skein model grades a run against a rubric (plus a case's own
 * criteria and reference answer) and returns a score in [0, 1] with its reasons, as structured
 * output. The judge's calls draw from a budget of its own, never from the evaluation's.
 */
import {
  Agent,
  NullConversationManager,
  RunBudget,
  type Budget,
  type BudgetSpend,
  type Model,
  errorMessage,
} from '@skein/core';
import type { EvalCase } from '../case/eval-case.js';
import type { CaseRun } from '../run/case-run.js';
import type { ScoreResult, Scorer } from './scorer.js';
import type { ZodNamespace } from './zod-namespace.js';

export interface JudgeScorerOptions {
  /** The model that judges (any skein model: Anthropic, Bedrock, OpenAI, a ScriptedModel in tests). */
  model: Model;
  /** What a good answer does, in words. */
  rubric: string;
  /** Default `judge`. */
  name?: string;
  /** Default 0.7. */
  threshold?: number;
  /** Limits for the judge's own calls (tokens, cost with prices...), apart from the evaluation's budget. */
  budget?: Budget;
  /** Show the judge the nodes, handoffs and tool calls too, not only the conversation (default true). */
  showTrajectory?: boolean;
}

/** A judge scorer, with what its own calls spent. */
export interface JudgeScorer extends Scorer {
  /** What the judge's model calls spent so far (never counted in the evaluation's budget). */
  readonly spent: BudgetSpend;
}

export const JUDGE_SYSTEM_PROMPT = `You grade the answers of a customer-facing AI system. You get a rubric, the conversation
and what the system did. Grade only against the rubric. Reply through the tool you are given: a score from 0
(fails the rubric) to 1 (fully meets it), and your reasons in one to three sentences.`;

const judgeSchema = (z: ZodNamespace) =>
  z.object({ criteria: z.string().optional(), reference: z.string().optional() }).strict();

/** The judge's prompt for one run (pure). */
export function judgePrompt(run: CaseRun, evalCase: EvalCase, rubric: string, showTrajectory: boolean): string {
  const lines = [`Rubric:\n${rubric}`];
  const own = evalCase.expect.judge;
  if (own?.criteria) lines.push(`For this case:\n${own.criteria}`);
  if (own?.reference) lines.push(`A reference answer:\n${own.reference}`);
  const conversation = run.turns.flatMap((t) => [
    `customer: ${t.input}`,
    `system: ${t.text || `(no answer: ${t.status})`}`,
  ]);
  lines.push(`The conversation:\n${conversation.join('\n')}`);
  if (showTrajectory) {
    const did = [
      `ran: ${run.nodes.join(' > ') || '(nothing)'}`,
      ...run.handoffs.map((h) => `handoff: ${h.from} > ${h.to}`),
      ...run.toolCalls.map((c) => `tool: ${c.agent} called ${c.name}(${JSON.stringify(c.input)}): ${c.status}`),
      ...run.interrupts.map(
        (i) =>
          `asked a person: ${i.name}${i.tool ? ` for ${i.tool}` : ''}; answer: ${JSON.stringify(i.answer ?? null)}`,
      ),
    ];
    lines.push(`What the system did:\n${did.join('\n')}`);
  }
  lines.push('Grade the final answer now.');
  return lines.join('\n\n');
}

/**
 * @example judge({ model: new AnthropicModel(), rubric: 'Polite, says what was done and what happens next.' })
 */
export function judge(options: JudgeScorerOptions): JudgeScorer {
  const budget = new RunBudget(options.budget ?? {}, { name: options.name ?? 'judge' });
  const showTrajectory = options.showTrajectory ?? true;
  return {
    name: options.name ?? 'judge',
    expects: 'judge',
    schema: judgeSchema,
    threshold: options.threshold ?? 0.7,
    get spent() {
      return budget.spent;
    },
    async score(run, evalCase, context): Promise<ScoreResult> {
      const { z } = await import('zod');
      const verdict = z.object({
        score: z.number().min(0).max(1).describe('0: fails the rubric; 1: fully meets it'),
        reasons: z.string().describe('Why, in one to three sentences'),
      });
      const agent = new Agent({
        name: 'judge',
        model: options.model,
        systemPrompt: JUDGE_SYSTEM_PROMPT,
        conversationManager: new NullConversationManager(),
      });
      try {
        const prompt = judgePrompt(run, evalCase, options.rubric, showTrajectory);
        const out = await agent.structuredOutput(verdict, prompt, {
          budget,
          toolName: 'grade',
          ...(context.signal ? { signal: context.signal } : {}),
        });
        return { score: out.score, reason: out.reasons };
      } catch (error) {
        return { score: 0, reason: `the judge failed: ${errorMessage(error)}` };
      }
    },
  };
}
