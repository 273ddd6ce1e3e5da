export { AnthropicTestServer } from './anthropic-test-server.js';
export type {
  AnthropicTestServerOptions,
  HttpReply,
  RecordedHttpRequest,
  ScriptedReply,
  StreamReply,
} from './anthropic-test-server.js';
export { answerEvents, encodeSse, errorBody, errorEvent } from './sse-script.js';
export type { AnswerScript, ScriptBlock, ScriptUsage, SseEvent } from './sse-script.js';
