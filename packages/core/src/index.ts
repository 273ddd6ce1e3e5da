// Agent
export { Agent } from './agent/agent.js';
export type {
  AgentHandle,
  DeriveOptions,
  InvokeOptions,
} from './agent/agent-handle.js';
export type { AgentOptions } from './agent/agent-options.js';
export { AgentResult } from './agent/agent-result.js';
export type {
  AgentEventData,
  AgentStreamEvent,
  CallbackEvent,
  CallbackHandler,
  RequestState,
} from './agent/agent-events.js';
export {
  depthOf,
  placeEvent,
  placing,
  withinDepth,
} from './events/event-place.js';
export type { EventPlace } from './events/event-place.js';
export { nestedReporter } from './events/nested-stream.js';
export type { Prompt } from './agent/prompt.js';
export type { AsToolOptions } from './agent/as-tool.js';
export type {
  DirectToolCaller,
  DirectToolCallOptions,
} from './agent/direct-tool-call.js';
export type { StructuredOutputOptions } from './agent/structured-output.js';
export { AgentState } from './state/agent-state.js';

// Interrupts (human in the loop)
export {
  InterruptResponseError,
  interruptId,
  withSourcePrefix,
} from './interrupt/interrupt.js';
export type {
  ApprovalResponse,
  Interrupt,
  InterruptResponse,
  InterruptResponseBlock,
} from './interrupt/interrupt.js';
export {
  interruptStateOf,
  restoreInterruptState,
} from './interrupt/interrupt-state.js';
export { matchResponses } from './interrupt/pending-turn.js';
export { checkMessages, promptResponses } from './agent/prompt.js';
export { setCheckedHistory } from './agent/checked-history.js';
export { InterruptRaised } from './interrupt/interrupt.js';
export type { NestedAgentState } from './interrupt/interrupt.js';

// Guardrails: checks beside the model (ready-made ones are in @skein/guardrails)
export type {
  Guardrail,
  GuardrailAgent,
  GuardrailContext,
  GuardrailDecision,
  GuardrailOptions,
  GuardrailSet,
  GuardrailSubject,
  GuardrailWhere,
  InputSubject,
  InvocationGuardrails,
  OutputSubject,
  ToolSubject,
} from './guardrails/guardrail.js';
export { guardTask, taskText } from './guardrails/guard-task.js';
export { checkGuardrailOptions } from './guardrails/check-guardrails.js';
export { guardrailsForNode, nodePath } from './guardrails/node-guardrails.js';
export type { OrchestratorGuardrails } from './guardrails/node-guardrails.js';
export type { TaskGuardContext } from './guardrails/guard-task.js';
export { GuardrailTripped } from './errors/guardrail-errors.js';
export type {
  GuardrailTrip,
  GuardrailTrippedOptions,
} from './errors/guardrail-errors.js';

// Doors (server, A2A, MCP, AG-UI): who asks, who may answer, bounded bodies
export { principalId } from './doors/principal.js';
export type {
  AnswerCheck,
  AuthorizeAnswer,
  Principal,
} from './doors/principal.js';
export { jsonDeeperThan } from './doors/json-depth.js';
export { readBodyBytes } from './doors/bounded-body.js';
export { BudgetStopRaised } from './budget/budget-stop-raised.js';
export { Listeners } from './events/listeners.js';
export { EventSource } from './events/event-source.js';
export { EventChannel } from './events/event-channel.js';
export {
  isStreamClosed,
  LockstepStream,
  type Emit,
} from './events/lockstep-stream.js';
export type {
  ListenedEvent,
  ListenedType,
  Listener,
  ListenerErrorEvent,
  TypedEvent,
} from './events/listeners.js';

// Messages and models
export type {
  CachePointBlock,
  ContentBlock,
  DocumentBlock,
  DocumentFormat,
  ImageBlock,
  ImageFormat,
  Message,
  ReasoningBlock,
  Role,
  TextBlock,
  ToolResult,
  ToolResultBlock,
  ToolResultContent,
  ToolUse,
  ToolUseBlock,
} from './types/messages.js';
export {
  errorToolResult,
  messageText,
  toolResultsOf,
  toolUsesOf,
} from './types/messages.js';
export type { JsonObject, JsonSchema, JsonValue } from './types/json.js';
export type {
  ContentBlockDelta,
  Model,
  ModelAttempt,
  ModelObserver,
  ModelRequest,
  ModelStreamEvent,
  StopReason,
  ToolChoice,
  ToolSpec,
  Usage,
} from './model/model.js';
export { fallback } from './model/fallback.js';
export type { FallbackOptions } from './model/fallback.js';
export { route } from './model/route.js';
export type { RouteContext, RouteSelect } from './model/route.js';
export type { CircuitBreakerOptions } from './model/circuit-breaker.js';
export { classifyFailure } from './model/classify-failure.js';
export type { FailureKind } from './model/classify-failure.js';

// Tools
export { isZodSchema, tool, toJsonSchema } from './tools/tool.js';
export type { FunctionTool, ToolOptions } from './tools/tool.js';
export type {
  AgentTool,
  NeedsApproval,
  ToolContext,
} from './tools/agent-tool.js';
export type { InvocationState } from './types/invocation-state.js';

// Hooks
export { HookRegistry } from './hooks/hook-registry.js';
export type {
  HookCallback,
  HookEventClass,
  HookProvider,
} from './hooks/hook-registry.js';
export {
  AfterInvocationEvent,
  AfterModelCallEvent,
  AfterToolCallEvent,
  AgentHookEvent,
  AgentInitializedEvent,
  BeforeInvocationEvent,
  BeforeModelCallEvent,
  BeforeToolCallEvent,
  MessageAddedEvent,
} from './hooks/events.js';
export type { ModelCallOutcome } from './hooks/events.js';
export {
  AfterMultiAgentInvocationEvent,
  AfterNodeCallEvent,
  BeforeMultiAgentInvocationEvent,
  BeforeNodeCallEvent,
  MultiAgentHookEvent,
  MultiAgentInitializedEvent,
} from './hooks/multi-agent-events.js';

// Loop configuration and metrics
export { ExponentialBackoffRetry } from './loop/retry-strategy.js';
export type {
  RetryStrategy,
  RetryStrategyOptions,
} from './loop/retry-strategy.js';
export { AgentMetrics, addUsage, emptyUsage } from './metrics/agent-metrics.js';
export type { AccumulatedUsage, ToolMetrics } from './metrics/agent-metrics.js';

// Conversation managers
export type { ConversationManager } from './conversation/conversation-manager.js';
export { BaseConversationManager } from './conversation/conversation-manager.js';
export { NullConversationManager } from './conversation/null-conversation-manager.js';
export {
  SlidingWindowConversationManager,
  TRUNCATED_TOOL_RESULT,
} from './conversation/sliding-window-conversation-manager.js';
export type { SlidingWindowOptions } from './conversation/sliding-window-conversation-manager.js';
export {
  DEFAULT_SUMMARIZATION_PROMPT,
  SummarizingConversationManager,
} from './conversation/summarizing-conversation-manager.js';
export type { SummarizingOptions } from './conversation/summarizing-conversation-manager.js';
export {
  closeDanglingToolUses,
  isValidStart,
} from './conversation/tool-pairs.js';

// Handoffs (the contract; handoff() and filters are in @skein/handoffs)
export {
  defaultHandoff,
  defaultHandoffDescription,
  handoffToolName,
  isHandoff,
} from './agent/handoff.js';
export type {
  Handoff,
  HandoffContext,
  HandoffInputData,
  HandoffInputFilter,
  HandoffRequest,
  InputValidator,
} from './agent/handoff.js';
export type { IssueLike } from './tools/format-issues.js';

// Sessions
export type { SessionManager } from './session/session-manager.js';
export type {
  AgentRecords,
  OrchestratorRecords,
  SessionRepository,
  SessionWrite,
} from './session/session-repository.js';
export type {
  ListMessagesOptions,
  NodeTransition,
  Session,
  SessionAgent,
  SessionMessage,
  SessionMultiAgent,
} from './session/session-types.js';
export { nowIso } from './session/session-types.js';
export { mapLimit } from './session/map-limit.js';
export {
  checkContiguous,
  checkIndex,
  recordText,
  storedRecordParsers,
} from './session/stored-records.js';
export type {
  CorruptRecord,
  StoredRecordParsers,
} from './session/stored-records.js';
export { checkWrite } from './session/check-write.js';
export {
  describeLeaseHolder,
  leaseHolderGone,
  leaseOwnerClosed,
  leaseOwnerOpened,
  processAlive,
} from './session/store/lease-holder.js';
export type { LeaseHolder } from './session/store/lease-holder.js';
export { LeaseHeartbeat } from './session/store/lease-heartbeat.js';
export { LeaseBook, WAIT_OR_TAKE_OVER } from './session/store/lease-book.js';
export type {
  LeaseBookOptions,
  LeaseView,
} from './session/store/lease-book.js';
export { SessionStore } from './session/store/session-store.js';
export { StoreSessionManager } from './session/store/store-session-manager.js';
export {
  checkStoreOptions,
  flagOption,
  positiveOption,
  sessionOptions,
} from './session/store/store-options.js';
export { SQLITE_DIALECT, postgresDialect } from './session/sql/sql-dialect.js';
export type { SqlDialect } from './session/sql/sql-dialect.js';
export type { SqlDriver } from './session/sql/sql-records.js';
export { SqlSessionStore } from './session/sql/sql-session-store.js';
export { sqlRefusal } from './session/sql/sql-writes.js';
export type {
  SqlRefusal,
  SqlStep,
  SqlWrite,
} from './session/sql/sql-writes.js';
export {
  checkSessionId,
  decodeBytes,
  encodeBytes,
  holdsBytes,
  withBytesEncoded,
  parseSessionData,
  serializeSessionData,
} from './session/session-codec.js';
export { InMemorySessionRepository } from './session/in-memory-session-repository.js';
export { RepositorySessionManager } from './session/repository-session-manager.js';
export type { RepositorySessionManagerOptions } from './session/repository-session-manager.js';
export { MultiAgentSession } from './session/multi-agent-session.js';
export type {
  AttachOptions,
  MultiAgentSnapshot,
  NewTransition,
  StepWrite,
} from './session/multi-agent-session.js';
export {
  committedTransitions,
  numberTransitions,
  readCommittedTransitions,
} from './session/run-tail.js';
export type {
  AgentAtStep,
  ForkOrigin,
  HistoryOptions,
  StepSnapshot,
  StoredRun,
  StoredStep,
} from './session/history/history-types.js';
export { OrchestratorHistory } from './session/history/history-reader.js';
export { forkSession } from './session/history/fork.js';
export type { ForkResult, ForkSessionOptions } from './session/history/fork.js';
export { isSideRecord } from './session/history/history-ids.js';
export { runDocumentId } from './session/run-document.js';
export { resolveKeep as checkHistoryOptions } from './session/history/run-history.js';
export { Recording, recordingOf } from './session/history/recording.js';
export type {
  RecordingData,
  ReplayToolOptions,
} from './session/history/recording.js';
export type { AgentCheckpoint } from './session/stored-history.js';
export { RunJournal } from './session/journal/run-journal.js';
export type { JournalStep } from './session/journal/run-journal.js';
export {
  historyLines,
  stateAtStep,
} from './session/journal/journal-history.js';
export type {
  HistoryLine,
  RunPart,
} from './session/journal/journal-history.js';
export { forkRun, journalHistory } from './session/journal/fork-run.js';
export type {
  ForkPart,
  RunFork,
  RunForkOptions,
} from './session/journal/fork-run.js';
export { editedMessage, withToolResult } from './session/journal/fork-edit.js';
export type {
  ForkEditKind,
  ForkEditSchema,
  ForkEdits,
} from './session/journal/fork-edit.js';
export {
  answerPrompt,
  beforeNodeAsk,
  pauseTransition,
  resumeTransition,
} from './multiagent/node-pause.js';

// Long-term memory (the contract; Memory is in @skein/memory, stores in the session packages)
export { attachMemory } from './memory/agent-memory.js';
export {
  answerOf,
  attachMemberMemory,
  openOrchestratorTurn,
} from './memory/orchestrator-memory.js';
export type { OrchestratorTurn } from './memory/orchestrator-memory.js';
export type { AgentMemory } from './memory/agent-memory.js';
export { checkMemoryId, isSafeMemoryId } from './memory/memory-target.js';
export { LexicalIndex } from './memory/lexical-index.js';
export { rankLexical } from './memory/rank-lexical.js';
export type { MemoryTarget } from './memory/memory-target.js';
export type {
  MemoryDocument,
  MemoryHit,
  MemoryMessage,
  MemorySearchOptions,
  MemoryStore,
  MemoryVersionChange,
} from './memory/memory-store.js';
export type { EmbeddingModel } from './model/embedding-model.js';

// Run-tree budgets
export {
  BUDGET_LIMITS,
  BudgetScope,
  BudgetWarningEvent,
  MultiAgentBudgetWarningEvent,
  OrchestratorBudget,
  RunBudget,
  budgetStopOf,
  costOf,
  describeExceeded,
  emptySpend,
  openBudgetScope,
  toolBudgetScope,
} from './budget/index.js';
export type {
  Budget,
  BudgetExceeded,
  BudgetLimit,
  BudgetOption,
  BudgetSpend,
  BudgetWarning,
  ModelPrice,
  OpenScope,
  PriceTable,
  Taken,
  UsageKind,
  UsageTree,
} from './budget/index.js';

// Multi-agent base
export { isUnfinished, nodeStreamEvent } from './multiagent/multi-agent.js';
export {
  isAgent,
  isAgentResult,
  isMultiAgent,
  isRunnable,
  runnableKind,
} from './multiagent/runnable.js';
export type { Runnable, RunnableKind } from './multiagent/runnable.js';
export type {
  MultiAgentBase,
  MultiAgentInvokeOptions,
  MultiAgentResult,
  MultiAgentEventData,
  MultiAgentStreamEvent,
  MultiAgentTask,
  NodeResult,
  Status,
} from './multiagent/multi-agent.js';
export { assertNoOwnSessionManager } from './multiagent/member-checks.js';

// Errors
export { SkeinError } from './errors/skein-error.js';
export { errorMessage } from './errors/error-message.js';
export type { SkeinErrorOptions } from './errors/skein-error.js';
export { ConfigurationError } from './errors/configuration-errors.js';
export {
  ContextWindowOverflowError,
  ModelError,
  ModelFallbackError,
  ModelThrottledError,
  ModelTransientError,
} from './errors/model-errors.js';
export type {
  FallbackAttemptRecord,
  ModelErrorOptions,
  ModelFallbackErrorOptions,
  ModelThrottledErrorOptions,
} from './errors/model-errors.js';
export {
  StructuredOutputError,
  ToolNotFoundError,
} from './errors/tool-errors.js';
export type {
  StructuredOutputErrorOptions,
  ValidationIssue,
} from './errors/tool-errors.js';
export {
  SessionConflictError,
  SessionCorruptError,
  SessionError,
  SessionNotFoundError,
} from './errors/session-errors.js';
export type { SessionErrorOptions } from './errors/session-errors.js';
export {
  ConcurrencyError,
  MultiAgentError,
} from './errors/orchestration-errors.js';
export { CancelledError, TimeoutError } from './errors/cancellation-errors.js';
export { MemoryError } from './errors/memory-errors.js';
