import { SkeinError, type SkeinErrorOptions } from './skein-error.js';

/** Options of session errors: where the problem is. */
export interface SessionErrorOptions extends SkeinErrorOptions {
  /** The file path or S3 key (or bucket) concerned. */
  location?: string;
}

/** A session could not be read or written; `location` names the file or key. */
export class SessionError extends SkeinError {
  readonly location: string | undefined;

  constructor(message: string, options: SessionErrorOptions = {}, code = 'session_error') {
    super(message, options, code);
    this.location = options.location;
  }
}

/** Another writer holds or changed the session; nothing of ours was written over theirs. */
export class SessionConflictError extends SessionError {
  constructor(message: string, options: SessionErrorOptions = {}) {
    super(message, options, 'session_conflict');
  }
}

/** Stored session data is not valid (corrupt JSON, a missing message, wrong fields). */
export class SessionCorruptError extends SessionError {
  constructor(message: string, options: SessionErrorOptions = {}) {
    super(message, options, 'session_corrupt');
  }
}

/** A session, agent or id that does not exist or is not allowed (e.g. an id escaping the storage root). */
export class SessionNotFoundError extends SessionError {
  constructor(message: string, options: SessionErrorOptions = {}) {
    super(message, options, 'session_not_found');
  }
}
