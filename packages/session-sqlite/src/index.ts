export { SqliteSessionRepository } from './sqlite-session-repository.js';
export type { SqliteSessionRepositoryOptions } from './sqlite-options.js';
export { SqliteSessionManager } from './sqlite-session-manager.js';
export type { SqliteSessionManagerOptions } from './sqlite-session-manager.js';
export { SCHEMA_VERSION } from './sqlite-schema.js';
