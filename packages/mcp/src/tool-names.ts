import { createHash } from 'node:crypto';

const ALLOWED = /[^a-zA-Z0-9_-]/g;
const MAX = 64;

/**
 * The name a model sees for an MCP tool: `prefix_name`, with every character outside
 * `[a-zA-Z0-9_-]` turned into `_` (MCP allows `.` and `/`, providers do not), cut to 64 characters
 * with a short hash of the full name when it is longer.
 */
export function skeinToolName(mcpName: string, prefix: string | undefined): string {
  const full = (prefix ? `${prefix}_${mcpName}` : mcpName).replace(ALLOWED, '_');
  if (full.length <= MAX && full.length > 0) return full;
  const hash = createHash('sha256').update(mcpName).digest('hex').slice(0, 8);
  return `${full.slice(0, MAX - 9)}_${hash}`;
}
