export { createServer } from './create-server.js';
export type { ServerControl, SkeinServer } from './create-server.js';
export { serve } from './serve.js';
export type { RunningServer, ServeOptions } from './serve.js';
export type { StopOptions } from './stop.js';
export { DEFAULT_LIMITS } from './options.js';
export type {
  AgentFactory,
  EvalSet,
  FactoryContext,
  Limits,
  MultiAgentFactory,
  Principal,
  RouteInfo,
  RunOptions,
  ServerAction,
  ServerOptions,
  TargetKind,
} from './options.js';
export type { AnswerCheck, AuthorizeAnswer } from '@skein/core';
export type { TurnResult, TurnStatus } from './runs/turn-result.js';
export type { LoggedEvent, ServerEvent, ServerEventType, SpeakerPath } from './stream/server-events.js';
export type { Problem } from './http/problem.js';
export { PROBLEM_MEDIA_TYPE } from './http/problem.js';
export { mapUiEvent } from './ui/ui-mapper.js';
export { newUiState } from './ui/ui-speakers.js';
export type { UiState } from './ui/ui-speakers.js';
export type { UiChunk } from './ui/ui-chunks.js';
