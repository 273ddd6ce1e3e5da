export { OpenAITestServer } from './openai-test-server.js';
export type { HttpReply, RecordedRequest, ScriptedReply, StreamReply } from './openai-test-server.js';
export { chatChunks, encodeChunks, errorBody } from './chat-chunks.js';
export type { Chunk, ChunkScript, ChunkToolCall } from './chat-chunks.js';
