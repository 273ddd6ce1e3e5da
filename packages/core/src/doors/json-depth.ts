/**
 * How deep a JSON text nests, read from the text before it is parsed: a door refuses a body nested
 * deeper than it will handle (validation and storing walk values recursively) with a clear 400,
 * instead of failing inside a validator. One pass, no allocation, strings skipped.
 */

/** True when `text` opens more than `maxDepth` objects or arrays inside one another (outside strings). */
export function jsonDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
