export { ScriptedModel } from './scripted-model.js';
export type {
  RecordedRequest,
  ScriptedAnswer,
  ScriptedFailure,
  ScriptedModelOptions,
  ScriptedToolUse,
  ScriptedTurn,
} from './scripted-model.js';
export { listenerDispatchCount } from '../events/listeners.js';
