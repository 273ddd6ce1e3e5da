import type { JsonObject, JsonValue } from '@skein/core';

/** The value when it is a finite number. */
export const num = (v: JsonValue | undefined): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;
/** The value when it is a JSON object. */
export const obj = (v: JsonValue | undefined): JsonObject | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
/** The value when it is a string, else ''. */
export const str = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');
