/**
 * What an evaluation runs: cases of one or more customer turns, the scripted answers to what the run
 * asks a person (approve / deny), and what each scorer expects. Plain data, so cases load from
 * TypeScript or from JSONL alike (zod schemas in expectations are for TypeScript cases only).
 */
import type { JsonObject, JsonValue } from '@skein/core';

/**
 * A scripted answer to an interrupt the run raises. It answers the first unanswered interrupt whose
 * `name` and `tool` match (each optional: absent matches any). `approve` answers an approval
 * (`{ approved, message }`); `response` is sent as it is for any other interrupt.
 */
export interface InterruptAnswer {
  /** The interrupt's name (`approval` for a tool's `needsApproval`). */
  name?: string;
  /** The tool whose call raised it. */
  tool?: string;
  /** Approve (true) or deny (false) an approval. */
  approve?: boolean;
  /** The message that goes with an approval answer (a denial's reason). */
  message?: string;
  /** The answer itself, for interrupts other than approvals. */
  response?: JsonValue;
}

/** One customer turn: what the customer says and how a person answers what it asks. */
export interface EvalTurn {
  input: string;
  answers?: InterruptAnswer[];
}

/** What the built-in scorers read (each scorer reads its own key); custom scorers read theirs. */
export interface Expectations {
  trajectory?: TrajectoryExpectation;
  tools?: ToolExpectation;
  interrupts?: InterruptExpectation[];
  answer?: AnswerExpectation;
  cost?: CostLimits;
  judge?: JudgeExpectation;
  [key: string]: unknown;
}

/** How an expected sequence is compared with what ran. */
export type MatchMode = 'exact' | 'inOrder' | 'anyOrder' | 'subset' | 'superset';

/** The nodes or members that ran and the handoffs between them. */
export interface TrajectoryExpectation {
  /** Node ids / member names in the order they started (an agent target: itself, then each agent it used as a tool). */
  nodes?: string[];
  /** Handoffs as `from>to` (a swarm's transfers). */
  handoffs?: string[];
  /** Default `exact`. */
  match?: MatchMode;
}

/** Something that validates like a zod schema (`safeParse`). */
export interface SchemaLike {
  safeParse(value: unknown): { success: boolean; error?: { issues: readonly IssueLike[] } };
}

/** A zod-like issue. */
export interface IssueLike {
  path: readonly PropertyKey[];
  message: string;
}

/** One expected tool call. */
export interface ToolCallExpectation {
  name: string;
  /** The arguments: a JSON object compared by `match`, or a zod schema (TypeScript cases). */
  args?: JsonObject | SchemaLike;
  /** `partial` (default): the expected keys match, others may be there; `exact`: the same object. */
  match?: 'exact' | 'partial';
  /** Who called it (an agent name); default anyone. */
  agent?: string;
}

export interface ToolExpectation {
  /** Calls that must have been made (in any order; each expected call takes one actual call). */
  calls?: ToolCallExpectation[];
  /** Tools the model must not have asked for. */
  notCalled?: string[];
  /** Tools that must not have run: no call of them succeeded (denied, invalid or refused calls did not run). */
  notRun?: string[];
}

/** An interrupt the run must raise; an empty list expects none. */
export interface InterruptExpectation {
  /** Default `approval`. */
  name?: string;
  tool?: string;
  /** Expected keys of the tool's input (partial match). */
  input?: JsonObject;
}

export interface AnswerExpectation {
  /** Texts the final answer contains (case-insensitive). */
  includes?: string[];
  /** Texts it must not contain (case-insensitive). */
  excludes?: string[];
  /** A regular expression the answer matches (a string in JSONL). */
  regex?: string | RegExp;
  /** A schema the structured output (or the answer parsed as JSON) satisfies (TypeScript cases). */
  schema?: SchemaLike;
}

/** Limits of one case's run (all of its turns), from its usage. */
export interface CostLimits {
  totalTokens?: number;
  inputTokens?: number;
  outputTokens?: number;
  modelCalls?: number;
  toolCalls?: number;
  costUsd?: number;
  /** Wall time of the case's run, in ms. */
  wallMs?: number;
}

export interface JudgeExpectation {
  /** What this case's answer should say or do (added to the judge's rubric). */
  criteria?: string;
  /** A reference answer the judge compares with. */
  reference?: string;
}

/** A validated case, as the runner and scorers see it. */
export interface EvalCase {
  id: string;
  turns: EvalTurn[];
  tags: string[];
  expect: Expectations;
  /** Minimum score per scorer name for the case to pass (default: the scorer's threshold). */
  thresholds: Record<string, number>;
  /** Anything the target needs to build the run (a shape, a fixture name...). */
  metadata: JsonObject;
}

/**
 * A case as written: `input` (and `answers`) for one turn, or `turns`; everything else optional.
 * @example { id: 'refund-over-limit', input: 'Refund order 108, 60 EUR', answers: [{ approve: true }], expect: { interrupts: [{ tool: 'issue_refund' }] } }
 */
export interface CaseInput {
  id: string;
  input?: string;
  answers?: InterruptAnswer[];
  turns?: (string | EvalTurn)[];
  tags?: string[];
  expect?: Expectations;
  thresholds?: Record<string, number>;
  metadata?: JsonObject;
}
