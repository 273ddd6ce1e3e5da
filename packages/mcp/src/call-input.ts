import type { JsonObject, JsonValue } from '@skein/core';
import type { ToolCatalog } from './tool-definitions.js';

/** A call the server may get: the tool is still offered and the input is an object its schema accepts. */
type CheckedCall = { readonly arguments: JsonObject } | { readonly problem: string };

/**
 * Checks a call against the server's current tool list before it goes out: a tool that left the
 * list (or was skipped when listed), an input that is not a JSON object, or one its input schema
 * rejects, is a problem the model reads (and can act on) instead of a round trip to the server.
 */
export function checkCall(
  catalog: ToolCatalog,
  name: string,
  mcpName: string,
  input: JsonValue,
  server: string,
): CheckedCall {
  const checked = catalog.tools.get(mcpName);
  if (!checked) {
    const skipped = catalog.skipped.find((s) => s.name === mcpName);
    return {
      problem: skipped
        ? `Tool ${name} cannot be called: ${skipped.reason}.`
        : `Tool ${name} is no longer offered by the ${server} (its tool list changed). Do not call it again.`,
    };
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return {
      problem: `Invalid input for tool ${name}: expected a JSON object. Call it again with input matching its schema.`,
    };
  }
  const valid = checked.validate(input);
  if (!valid.valid) {
    return {
      problem: `Invalid input for tool ${name}: ${valid.errorMessage}. Call it again with input matching its schema.`,
    };
  }
  return { arguments: input };
}
