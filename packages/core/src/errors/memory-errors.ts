import { SkeinError, type SkeinErrorOptions } from './skein-error.js';

/**
 * Long-term memory could not be read or written, or was given something it cannot keep: a resource
 * id with path characters (`memory_invalid_id`), stored working memory that the schema does not
 * accept (`memory_schema_mismatch`), an embedding of the wrong length (`memory_embedding_dimension`).
 * Nothing is written when one is thrown.
 */
export class MemoryError extends SkeinError {
  constructor(message: string, options: SkeinErrorOptions = {}, code = 'memory_error') {
    super(message, options, code);
  }
}
