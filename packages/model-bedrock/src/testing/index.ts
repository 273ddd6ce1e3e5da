export { BedrockWireServer, encodeFrames, textFrames, toolUseFrames } from './bedrock-wire-server.js';
export type { WireFrame, WireReply, WireReplyFunction, WireRequest } from './bedrock-wire-server.js';
