export { OpenAITestServer } from './openai-test-server.js';
export type { HttpReply, RecordedRequest, ReplySource, ScriptedReply, StreamReply } from './openai-test-server.js';
export { chatChunks, encodeChunks, errorBody } from './chat-chunks.js';
export type { Chunk, ChunkScript, ChunkToolCall } from './chat-chunks.js';
export { encodeResponseEvents, responseEvents } from './response-events.js';
export type { ResponseScript, ResponseToolCall } from './response-events.js';
export { embeddingsBody } from './embeddings-body.js';
