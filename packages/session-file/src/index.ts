export { FileSessionRepository } from './file-session-repository.js';
export type { FileSessionRepositoryOptions } from './file-session-repository.js';
export { FileSessionManager, defaultStorageDir } from './file-session-manager.js';
export type { FileSessionManagerOptions } from './file-session-manager.js';
