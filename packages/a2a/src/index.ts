// Serving: any skein Agent, Graph or Swarm as an A2A agent
export { createA2AApp } from './serve/a2a-app.js';
export type { A2AApp } from './serve/a2a-app.js';
export { serveA2A } from './serve/serve-a2a.js';
export type { A2AServer, ServeA2AOptions } from './serve/serve-a2a.js';
export { principalId } from '@skein/core';
export type { A2ACardOptions, A2AServerOptions, A2ATarget, Authorize, Principal } from './serve/options.js';
export { buildCard, PATHS } from './serve/card.js';
export { INTERRUPTS_KEY, RESPONSES_KEY } from './serve/answers.js';

// Calling: remote A2A agents as tools, graph nodes and swarm members
export { RemoteAgent } from './call/remote-agent.js';
export type { RemoteAgentOptions } from './call/remote-agent.js';
export type { CallAnswer } from './call/remote-call.js';
export type { HeadersOption } from './call/connection.js';
export { RemoteAgentError } from './errors.js';
export type { RemoteAgentErrorOptions, RemoteFailure } from './errors.js';
