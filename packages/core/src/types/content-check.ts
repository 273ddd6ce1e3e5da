/** The kinds a content block may be (one per block, as Bedrock Converse shapes them). */
const KINDS = [
  'text',
  'toolUse',
  'toolResult',
  'image',
  'document',
  'reasoningContent',
  'cachePoint',
  'interruptResponse',
];

/**
 * What is wrong with a content block, or `undefined` when nothing is: a block must be an object, and
 * hold at most one of the known kinds (`{ text }`, `{ toolUse }`, ...). Blocks of other kinds pass
 * (providers decide what they accept); what fails here would break the loop or a stored session.
 */
export function contentBlockProblem(block: unknown): string | undefined {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) {
    return `is ${block === null ? 'null' : Array.isArray(block) ? 'an array' : `a ${typeof block}`}, not a content block such as { text: '...' }`;
  }
  // Counted before any list is made: this runs for every block of every history an agent is given.
  let count = 0;
  for (const k of KINDS) if (k in block) count++;
  if (count <= 1) return undefined;
  const kinds = KINDS.filter((k) => k in block);
  if (kinds.length > 1)
    return `holds ${kinds.join(' and ')} at once; a content block holds one kind (split it into ${kinds.length} blocks)`;
  return undefined;
}
