import { errorMessage } from '@skein/core';
import type { Client, JsonSchemaType, JsonSchemaValidator, StandardSchemaV1, Tool } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';

/** A tool the server listed but skein does not offer, and why. */
export interface SkippedTool {
  /** The tool's MCP name. */
  name: string;
  reason: string;
}

/** A listed tool whose input schema compiled, with its validator. */
interface CheckedTool {
  definition: Tool;
  validate: JsonSchemaValidator<unknown>;
}

/** The server's tools, split into usable and skipped. */
export interface ToolCatalog {
  tools: Map<string, CheckedTool>;
  skipped: SkippedTool[];
}

const MAX_PAGES = 64;

/** A result schema that accepts any `tools/list` answer with a tools array, for the tolerant path. */
const LOOSE_LIST: StandardSchemaV1<unknown, { tools: unknown[]; nextCursor?: string }> = {
  '~standard': {
    version: 1,
    vendor: 'skein',
    validate: (value: unknown) => {
      const v = value as { tools?: unknown; nextCursor?: unknown } | null;
      if (typeof v !== 'object' || v === null || !Array.isArray(v.tools))
        return { issues: [{ message: 'the tools/list result has no tools array' }] };
      return { value: { tools: v.tools, ...(typeof v.nextCursor === 'string' ? { nextCursor: v.nextCursor } : {}) } };
    },
  },
};

/**
 * Every page of `tools/list`. The SDK's own `listTools()` is tried first (it keeps the list it
 * uses for output-schema checks); when it rejects the whole list because one tool is malformed,
 * the pages are read as plain JSON so the other tools stay usable.
 */
async function listRaw(client: Client, timeoutMs: number): Promise<unknown[]> {
  try {
    return (await client.listTools(undefined, { timeout: timeoutMs })).tools;
  } catch (first) {
    try {
      const all: unknown[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const params = cursor === undefined ? {} : { cursor };
        const result = await client.request({ method: 'tools/list', params }, LOOSE_LIST, { timeout: timeoutMs });
        all.push(...result.tools);
        cursor = result.nextCursor;
        if (cursor === undefined) return all;
      }
      return all;
    } catch {
      throw first;
    }
  }
}

function check(raw: unknown, validator: AjvJsonSchemaValidator): CheckedTool | SkippedTool {
  const tool = raw as Partial<Tool> | null;
  const name = typeof tool?.name === 'string' ? tool.name : JSON.stringify(tool?.name ?? null);
  if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string' || tool.name.length === 0) {
    return { name, reason: 'the server listed a tool without a name' };
  }
  const schema = tool.inputSchema as unknown;
  if (
    typeof schema !== 'object' ||
    schema === null ||
    Array.isArray(schema) ||
    (schema as { type?: unknown }).type !== 'object'
  ) {
    return { name, reason: 'its inputSchema is not a JSON Schema object with type "object", as MCP requires' };
  }
  try {
    return { definition: tool as Tool, validate: validator.getValidator<unknown>(schema as JsonSchemaType) };
  } catch (error) {
    return {
      name,
      reason: `its inputSchema is not valid JSON Schema: ${errorMessage(error)}`,
    };
  }
}

/** Reads the server's tools and compiles each input schema; broken tools are skipped with a reason. */
export async function fetchCatalog(client: Client, timeoutMs: number): Promise<ToolCatalog> {
  const validator = new AjvJsonSchemaValidator();
  const catalog: ToolCatalog = { tools: new Map(), skipped: [] };
  for (const raw of await listRaw(client, timeoutMs)) {
    const checked = check(raw, validator);
    if ('reason' in checked) catalog.skipped.push(checked);
    else if (catalog.tools.has(checked.definition.name))
      catalog.skipped.push({ name: checked.definition.name, reason: 'the server listed two tools with this name' });
    else catalog.tools.set(checked.definition.name, checked);
  }
  return catalog;
}
