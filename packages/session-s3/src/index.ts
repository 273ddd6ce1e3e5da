export { S3SessionRepository } from './session-repository.js';
export type { S3SessionRepositoryOptions } from './options.js';
export { S3SessionManager } from './session-manager.js';
export type { S3SessionManagerOptions } from './session-manager.js';
export { S3MemoryStore } from './memory-store.js';
export type { S3MemoryStoreOptions } from './memory-store.js';
