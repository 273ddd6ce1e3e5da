export { PostgresSessionRepository } from './session-repository.js';
export type { PostgresSessionRepositoryOptions } from './options.js';
export { PostgresSessionManager } from './session-manager.js';
export type { PostgresSessionManagerOptions } from './session-manager.js';
export { SCHEMA_VERSION } from './schema.js';
export { PostgresMemoryStore } from './memory-store.js';
export type { PostgresMemoryStoreOptions } from './memory-store.js';
