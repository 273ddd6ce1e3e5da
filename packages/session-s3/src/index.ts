export { S3SessionRepository } from './s3-session-repository.js';
export type { S3SessionRepositoryOptions } from './s3-options.js';
export { S3SessionManager } from './s3-session-manager.js';
export type { S3SessionManagerOptions } from './s3-session-manager.js';
