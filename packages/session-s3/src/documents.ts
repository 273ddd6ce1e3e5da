import { SessionCorruptError, storedRecordParsers } from '@skein/core';

/**
 * Stored objects read by core's parsers, which check the fields skein relies on: a hand-edited or
 * truncated object is a `SessionCorruptError` naming its `s3://bucket/key`, not a crash later.
 */
export const records = storedRecordParsers(
  (location, problem) =>
    new SessionCorruptError(`Session object ${location} ${problem}; fix or remove that object.`, { location }),
  'key',
);
