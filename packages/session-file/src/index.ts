export { FileSessionRepository } from './session-repository.js';
export type { FileSessionRepositoryOptions } from './session-repository.js';
export { FileSessionManager, defaultStorageDir } from './session-manager.js';
export type { FileSessionManagerOptions } from './session-manager.js';
export { FileMemoryStore } from './memory-store.js';
export type { FileMemoryStoreOptions } from './memory-store.js';
