export { PostgresSessionRepository } from './pg-session-repository.js';
export type { PostgresSessionRepositoryOptions } from './pg-options.js';
export { PostgresSessionManager } from './pg-session-manager.js';
export type { PostgresSessionManagerOptions } from './pg-session-manager.js';
export { SCHEMA_VERSION } from './pg-schema.js';
