/**
 * The data of run-tree budgets: the limits a caller sets, prices, what was spent, and the usage tree
 * a result reports. Plain JSON shapes, so a run's spend can be stored with its session.
 */

/** The limits a budget can set; each names one counter of {@link BudgetSpend}. */
export type BudgetLimit =
  | 'totalTokens'
  | 'inputTokens'
  | 'outputTokens'
  | 'costUsd'
  | 'toolCalls'
  | 'modelCalls'
  | 'nodeExecutions'
  | 'wallMs';

/** Every limit, in the order they are checked (the first one reached is the one reported). */
export const BUDGET_LIMITS: readonly BudgetLimit[] = [
  'totalTokens',
  'inputTokens',
  'outputTokens',
  'costUsd',
  'toolCalls',
  'modelCalls',
  'nodeExecutions',
  'wallMs',
];

/** Price of one model, in US dollars per million tokens. */
export interface ModelPrice {
  /** Input (prompt) tokens, USD per million. */
  inputPerMTok: number;
  /** Output tokens, USD per million. */
  outputPerMTok: number;
  /** Prompt-cache reads, USD per million (default: the input price). */
  cacheReadPerMTok?: number;
  /** Prompt-cache writes, USD per million (default: the input price). */
  cacheWritePerMTok?: number;
}

/** Prices by model id (`model.modelId`). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * What `budget` on `invoke` / `stream` of an Agent, Graph or Swarm accepts: limits over the whole run
 * tree (every nested agent, orchestrator and agent-as-tool draws from it), and how it is accounted.
 */
export interface Budget {
  /** Input plus output tokens. */
  totalTokens?: number;
  inputTokens?: number;
  outputTokens?: number;
  /** Cost in US dollars, from `prices` (every model that runs needs a price when this is set). */
  costUsd?: number;
  /** Tool calls (an agent used as a tool counts as one, and its own calls count too). */
  toolCalls?: number;
  /** Model calls (every attempt counts: a call retried after a throttle or a transient fault counts once per attempt). */
  modelCalls?: number;
  /** Node executions of every orchestrator in the tree. */
  nodeExecutions?: number;
  /** Wall-clock time of the run, in ms (checked at safe points and before a retry's wait; it never aborts a call in flight). */
  wallMs?: number;
  /** Prices by model id, for `costUsd` and for the cost in the usage tree. */
  prices?: PriceTable;
  /** Fraction of a limit at which a `budgetWarning` is raised, once per limit. Default 0.8; 1 or more turns warnings off. */
  warnAt?: number;
  /**
   * Output tokens a model call reserves before it starts when its model does not say its
   * `maxTokens`. Default 4096. Parallel branches see each other's reservations.
   */
  reserveTokens?: number;
}

/** What a run tree has spent (also what a usage-tree node reports for its subtree). */
export interface BudgetSpend {
  totalTokens: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  toolCalls: number;
  modelCalls: number;
  nodeExecutions: number;
  /** Wall-clock time of the run, in ms (the root only; 0 in subtrees). */
  wallMs: number;
  /** Prompt-cache reads among the tokens (counted in `totalTokens`, priced at `cacheReadPerMTok`); present once any were read. */
  cacheReadInputTokens?: number;
  /** Prompt-cache writes among the tokens (counted in `totalTokens`, priced at `cacheWritePerMTok`); present once any were written. */
  cacheWriteInputTokens?: number;
}

/** The limit that stopped a run: which one, its value, and what was spent of it. */
export interface BudgetExceeded {
  limit: BudgetLimit;
  max: number;
  spent: number;
}

/** A limit crossed its warning threshold. */
export interface BudgetWarning {
  limit: BudgetLimit;
  max: number;
  spent: number;
  /** `spent / max` when the warning was raised. */
  fraction: number;
}

/** Where a usage-tree node sits: the run itself, an agent invocation, an orchestrator run or one of its nodes. */
export type UsageKind = 'run' | 'agent' | 'graph' | 'swarm' | 'orchestrator' | 'node' | 'tool';

/**
 * What a run spent, as a tree: the root is the run, children are nodes, agents and agents used as
 * tools, each with what its subtree spent. Every model call is counted once, at the agent that made
 * it, and rolls up through its ancestors.
 */
export interface UsageTree {
  name: string;
  kind: UsageKind;
  spend: BudgetSpend;
  children: UsageTree[];
}

/** A spend with every counter at 0. */
export function emptySpend(): BudgetSpend {
  return {
    totalTokens: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    toolCalls: 0,
    modelCalls: 0,
    nodeExecutions: 0,
    wallMs: 0,
  };
}
