export { SqliteSessionRepository } from './session-repository.js';
export type { SqliteSessionRepositoryOptions } from './options.js';
export { SqliteSessionManager } from './session-manager.js';
export type { SqliteSessionManagerOptions } from './session-manager.js';
export { SCHEMA_VERSION } from './schema.js';
export { SqliteMemoryStore } from './memory-store.js';
export type { SqliteMemoryStoreOptions } from './memory-store.js';
