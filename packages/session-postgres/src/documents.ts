import { SessionCorruptError, storedRecordParsers } from '@skein/core';

/**
 * The stored documents: each record is one row whose `doc` column holds the record's JSON with
 * Strands Agents' field names (the JSON a file or S3 store writes, without indentation), read by
 * core's parsers; a hand-edited row is a `SessionCorruptError` naming it.
 */
export const records = storedRecordParsers(
  (location, problem) =>
    new SessionCorruptError(`Session data at ${location} ${problem}; fix or delete that row (nothing was changed).`, {
      location,
    }),
  'row',
);
