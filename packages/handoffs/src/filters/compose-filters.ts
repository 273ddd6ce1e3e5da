import type { HandoffInputData, HandoffInputFilter } from '@skein/core';

/**
 * One input filter that applies `filters` left to right, each receiving the previous one's output.
 * @example
 * const filter = composeFilters(removeAllTools, nestHandoffHistory);
 */
export function composeFilters(...filters: HandoffInputFilter[]): HandoffInputFilter {
  for (const [i, f] of filters.entries()) {
    if (typeof f !== 'function')
      throw new TypeError(`composeFilters: argument ${i} is not a filter function (got ${typeof f}).`);
  }
  return async (data: HandoffInputData): Promise<HandoffInputData> => {
    let current = data;
    for (const filter of filters) current = await filter(current);
    return current;
  };
}
