export { BedrockWireServer, encodeFrames, textFrames, toolUseFrames } from './bedrock-wire-server.js';
export type { WireFrame, WireReply, WireRequest } from './bedrock-wire-server.js';
