import { type JsonObject, type JsonValue, MemoryError, type MemoryStore } from '@skein/core';
import type { z } from 'zod';
import { mergePatch } from './merge-patch.js';

/** How often a patch is tried again when another conversation changed the record in between. */
const MAX_TRIES = 20;

const issuesOf = (error: z.ZodError): string =>
  error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');

/**
 * A resource's working memory in a store: read and checked against the schema, changed only by
 * merge patch (RFC 7386) with compare-and-set, so that two conversations updating it at once both
 * keep their fields.
 */
export class WorkingMemory {
  readonly #store: MemoryStore;
  readonly #schema: z.ZodObject;

  constructor(store: MemoryStore, schema: z.ZodObject) {
    this.#store = store;
    this.#schema = schema;
  }

  /** The stored record (`{}` when none); a `MemoryError` when it does not match the schema. */
  async read(resource: string, key: string): Promise<JsonObject> {
    const doc = await this.#store.readDocument(resource, key);
    if (!doc) return {};
    const checked = this.#schema.safeParse(doc.value);
    if (!checked.success)
      throw new MemoryError(
        `The working memory stored for ${resource} (${key}, in ${this.#store.label}) does not match the schema given to Memory: ${issuesOf(checked.error)}. Migrate the stored record or change the schema; nothing was written.`,
        {},
        'memory_schema_mismatch',
      );
    return doc.value;
  }

  /**
   * Applies `patch` to the stored record and returns the new one; throws a `MemoryError` (nothing
   * written) when the result does not match the schema.
   */
  async patch(resource: string, key: string, patch: JsonObject): Promise<JsonObject> {
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const doc = await this.#store.readDocument(resource, key);
      const next = mergePatch(doc?.value ?? {}, patch) as JsonObject;
      const checked = this.#schema.safeParse(next);
      if (!checked.success)
        throw new MemoryError(
          `The working-memory update does not match its schema: ${issuesOf(checked.error)}. Nothing was written.`,
          {},
          'memory_schema_mismatch',
        );
      if (await this.#store.writeDocument(resource, key, next, doc?.version ?? 0)) return next;
    }
    throw new MemoryError(
      `The working memory of ${resource} (${key}) changed ${MAX_TRIES} times while this update was applied; try again.`,
      {},
      'memory_conflict',
    );
  }
}

/** The patch a tool call carries, checked to be a JSON object. */
export function patchOf(input: { patch: Record<string, unknown> }): JsonObject {
  return JSON.parse(JSON.stringify(input.patch)) as JsonObject;
}

/** The description of the update tool: what a merge patch is, and the record's JSON Schema. */
export function toolDescription(schema: z.ZodObject): string {
  const json: JsonValue = JSON.parse(JSON.stringify(schema.toJSONSchema({ io: 'input', unrepresentable: 'any' })));
  return `Update the working memory about this customer (shown in the system prompt) with a JSON merge patch (RFC 7386): give only the fields that change; a field set to null is removed; nested objects merge. The record follows this JSON Schema: ${JSON.stringify(json)}`;
}
