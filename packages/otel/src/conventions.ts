/**
 * The names skein's spans, attributes, span events and metrics use, as data. The `gen_ai.*` names
 * follow the OpenTelemetry GenAI semantic conventions as published in the incubating registry of
 * semantic-conventions v1.45.0 (the release the standalone GenAI conventions v0.1.0 depend on),
 * where `invoke_workflow` is still its own operation. `skein.*` names are skein's own, for what the
 * conventions do not name (node executions, tool counts, transitions).
 */

/** The version of the conventions these names follow. */
export const SEMCONV_VERSION = '1.45.0';

/** Values of `gen_ai.operation.name`, also the first word of the span names. */
export const OPERATION = {
  invokeAgent: 'invoke_agent',
  chat: 'chat',
  executeTool: 'execute_tool',
  invokeWorkflow: 'invoke_workflow',
} as const;

/** Span attribute keys. */
export const ATTR = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  timeToFirstChunk: 'gen_ai.response.time_to_first_chunk',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationTokens: 'gen_ai.usage.cache_creation.input_tokens',
  tokenType: 'gen_ai.token.type',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  agentDescription: 'gen_ai.agent.description',
  conversationId: 'gen_ai.conversation.id',
  workflowName: 'gen_ai.workflow.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolDescription: 'gen_ai.tool.description',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  errorType: 'error.type',
  // skein's own
  orchestratorKind: 'skein.orchestrator.kind',
  nodeId: 'skein.node.id',
  nodeStatus: 'skein.node.status',
  nodeExecution: 'skein.node.execution',
  runStatus: 'skein.run.status',
  runId: 'skein.run.id',
  stopReason: 'skein.stop_reason',
  cycles: 'skein.agent.cycles',
  attempt: 'skein.retry.attempt',
  delayMs: 'skein.retry.delay_ms',
  discarded: 'skein.retry.discarded_partial_answer',
  transitionSeq: 'skein.transition.seq',
  transitionFrom: 'skein.transition.from',
  transitionTo: 'skein.transition.to',
  transitionKind: 'skein.transition.kind',
  transitionReason: 'skein.transition.reason',
  handoffHistoryBefore: 'skein.handoff.history_before',
  handoffHistoryAfter: 'skein.handoff.history_after',
  handoffSharedContextKeys: 'skein.handoff.shared_context_keys',
  handoffAlsoRan: 'skein.handoff.also_ran',
  handoffRefused: 'skein.handoff.refused',
  interruptIds: 'skein.interrupt.ids',
  interruptNames: 'skein.interrupt.names',
} as const;

/** Span event names. */
export const EVENT = {
  retry: 'skein.model.retry',
  skipped: 'skein.model.skipped',
  transition: 'skein.transition',
  handoff: 'skein.handoff',
  interrupt: 'skein.interrupt',
  resume: 'skein.resume',
} as const;

/** Metric instruments: name, unit, description, kind. */
export const METRIC = {
  tokenUsage: {
    name: 'gen_ai.client.token.usage',
    unit: '{token}',
    description: 'Tokens used per model call, by gen_ai.token.type.',
  },
  operationDuration: {
    name: 'gen_ai.client.operation.duration',
    unit: 's',
    description: 'Duration of GenAI operations (chat, invoke_agent, invoke_workflow).',
  },
  timeToFirstChunk: {
    name: 'gen_ai.client.operation.time_to_first_chunk',
    unit: 's',
    description: 'Time from the model request to its first streamed chunk.',
  },
  toolCalls: { name: 'skein.tool.calls', unit: '{call}', description: 'Tool calls.' },
  toolErrors: { name: 'skein.tool.errors', unit: '{call}', description: 'Tool calls whose result is an error.' },
  toolDuration: { name: 'skein.tool.duration', unit: 's', description: 'Duration of tool calls.' },
  nodeExecutions: {
    name: 'skein.node.executions',
    unit: '{execution}',
    description: 'Node executions of graphs and swarms, by skein.node.status.',
  },
  nodeDuration: { name: 'skein.node.duration', unit: 's', description: 'Duration of node executions.' },
  cycles: {
    name: 'skein.agent.cycles',
    unit: '{cycle}',
    description: 'Agent-loop cycles (model turns) per invocation.',
  },
} as const;

/**
 * `gen_ai.provider.name` by model class, for skein's model packages. Other models: their own
 * `providerName` field when they have one, else the `providerName` option, else `skein`.
 */
export const PROVIDER_BY_MODEL_CLASS: Readonly<Record<string, string>> = {
  AnthropicModel: 'anthropic',
  BedrockModel: 'aws.bedrock',
  OpenAIModel: 'openai',
  ScriptedModel: 'skein.scripted',
};

/** Strands-style names of orchestrator spans (the `workflowSpanName: 'kind'` option), by orchestrator class. */
export const KIND_SPAN_NAMES: Readonly<Record<string, string>> = {
  Graph: 'invoke_graph',
  Swarm: 'invoke_swarm',
};

/** The environment variable that turns on message content capture. */
export const CAPTURE_CONTENT_ENV = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';
