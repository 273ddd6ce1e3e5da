/**
 * Bad-input fuzz (issue 17): each seeded trial runs one case of each category — session files,
 * ids, messages, tool inputs, options — chosen by the seed (consecutive seeds cycle through every
 * case of a category) with seeded details (where a file is truncated). A case is broken when it
 * throws anything but a documented skein error naming the problem, writes outside the storage root,
 * or changes what was stored before a rejected operation; the category files say what else.
 */
import { ID_CASES, idCase } from './fuzz-ids.js';
import { MESSAGE_CASES, messageCase } from './fuzz-messages.js';
import { OPTION_CASES, optionCase } from './fuzz-options.js';
import { ORCHESTRATOR_FILE_CASES, orchestratorFileCase } from './fuzz-orchestrator-files.js';
import { SESSION_FILE_CASES, sessionFileCase } from './fuzz-session-files.js';
import type { FuzzCaseReport } from './fuzz-support.js';
import { TOOL_INPUT_CASES, toolInputCase } from './fuzz-tool-inputs.js';
import { seededRandom } from './seeded.js';

/** The categories, in report order. */
export const FUZZ_CATEGORIES = [
  'session files',
  'orchestrator files',
  'ids',
  'messages',
  'tool inputs',
  'options',
] as const;
/** A category of the fuzz. */
export type FuzzCategory = (typeof FUZZ_CATEGORIES)[number];

/** How many distinct cases each category has (seed `n` runs case `n % count`). */
export const FUZZ_CASE_COUNTS: Readonly<Record<FuzzCategory, number>> = {
  'session files': SESSION_FILE_CASES,
  'orchestrator files': ORCHESTRATOR_FILE_CASES,
  ids: ID_CASES,
  messages: MESSAGE_CASES,
  'tool inputs': TOOL_INPUT_CASES,
  options: OPTION_CASES,
};

/** What one trial ran. */
export interface FuzzTrialReport {
  seed: number;
  cases: FuzzCaseReport[];
  replay: string;
}

/** The case of `category` for `seed`. */
export function fuzzCase(category: FuzzCategory, seed: number): Promise<FuzzCaseReport> {
  switch (category) {
    case 'session files':
      return sessionFileCase(seed, seededRandom(seed * 7919 + 3));
    case 'orchestrator files':
      return orchestratorFileCase(seed, seededRandom(seed * 7919 + 3));
    case 'ids':
      return idCase(seed);
    case 'messages':
      return messageCase(seed);
    case 'tool inputs':
      return toolInputCase(seed);
    case 'options':
      return optionCase(seed);
  }
}

/** One trial: a case of every category for `seed`. */
export async function fuzzTrial(seed: number): Promise<FuzzTrialReport> {
  const cases: FuzzCaseReport[] = [];
  for (const category of FUZZ_CATEGORIES) cases.push(await fuzzCase(category, seed));
  return { seed, cases, replay: `npm run reliability -- --campaign fuzz --seed ${seed} --trials 1` };
}
