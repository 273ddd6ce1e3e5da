import { isUnfinished, type MultiAgentSnapshot } from '@skein/core';

/** The statuses a stored run may have. */
const STATUSES = new Set(['pending', 'executing', 'completed', 'failed', 'interrupted', 'budgetExceeded']);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const valuesAre = (v: unknown, ok: (x: unknown) => boolean): boolean => isObj(v) && Object.values(v).every(ok);
const isCheckpoint = (v: unknown): boolean => isObj(v) && isCount(v['nextMessageId']) && isObj(v['conversation']);
const isInFlight = (v: unknown): boolean =>
  isObj(v) &&
  isStrings(v['sources']) &&
  (v['messages'] === undefined || isCount(v['messages'])) &&
  (v['state'] === undefined || isObj(v['state'])) &&
  (v['checkpoint'] === undefined || isCheckpoint(v['checkpoint'])) &&
  (v['continues'] === undefined || v['continues'] === true);
const isActivation = (v: unknown): boolean => isObj(v) && typeof v['nodeId'] === 'string' && isInFlight(v);
const isInterrupt = (v: unknown): boolean => isObj(v) && typeof v['id'] === 'string' && typeof v['name'] === 'string';
const isPaused = (v: unknown): boolean =>
  isObj(v) &&
  isStrings(v['sources']) &&
  (v['stage'] === 'before' || v['stage'] === 'node') &&
  Array.isArray(v['interrupts']) &&
  v['interrupts'].every(isInterrupt);
const isAnswers = (v: unknown): boolean => isObj(v) && Array.isArray(v['before']) && Array.isArray(v['node']);
const isTask = (v: unknown): boolean => typeof v === 'string' || Array.isArray(v);

/** The fields of a stored unfinished run that a resume relies on, and what each must be. */
const FIELDS: [field: string, ok: (v: unknown) => boolean, expected: string][] = [
  ['task', isTask, 'the task (a string or content blocks)'],
  ['executionCount', isCount, 'a count'],
  ['usage', isObj, 'an object of token counts'],
  [
    'waiting',
    (v) => Array.isArray(v) && v.every(isActivation),
    'a list of { nodeId, sources, messages?, state?, checkpoint? }',
  ],
  ['running', (v) => valuesAre(v, isInFlight), 'an object of { sources, messages?, state?, checkpoint? } by node id'],
  ['joins', (v) => valuesAre(v, isStrings), 'an object of node id lists'],
  ['handled', isStrings, 'a list of node ids'],
  [
    'paused',
    (v) => v === undefined || valuesAre(v, isPaused),
    'an object of { sources, stage, interrupts } by node id',
  ],
  ['answers', (v) => v === undefined || valuesAre(v, isAnswers), 'an object of { before, node } answers by node id'],
  ['elapsedMs', (v) => typeof v === 'number' && v >= 0, 'a number of ms'],
];

function nodeEntryProblem(id: string, entry: Obj): string | undefined {
  const result = entry['result'];
  if (
    !isObj(result) ||
    typeof result['status'] !== 'string' ||
    !STATUSES.has(result['status']) ||
    !isCount(result['executionCount'])
  ) {
    return `the entry of node ${JSON.stringify(id)} has no valid result ({ nodeId, status, executionCount, ... })`;
  }
  if (result['text'] !== undefined && typeof result['text'] !== 'string')
    return `the result of node ${JSON.stringify(id)} has a text that is not a string`;
  if (!Array.isArray(entry['order']) || !entry['order'].every(isCount))
    return `the entry of node ${JSON.stringify(id)} has an order that is not a list of positions`;
  return undefined;
}

/** The node ids a stored run names (where it waits, runs, paused, was routed around, has entries). */
function namedNodes(state: Obj, nodes: Record<string, unknown>): string[] {
  const activations = (state['waiting'] as { nodeId: string; sources: string[] }[]).flatMap((a) => [
    a.nodeId,
    ...a.sources,
  ]);
  const keyed = (v: unknown): string[] =>
    isObj(v)
      ? Object.entries(v).flatMap(([id, x]) => [id, ...(isObj(x) && isStrings(x['sources']) ? x['sources'] : [])])
      : [];
  return [
    ...activations,
    ...keyed(state['running']),
    ...keyed(state['paused']),
    ...(state['handled'] as string[]),
    ...Object.keys(nodes),
  ];
}

/**
 * What makes a stored graph run unusable, or `undefined`: a status that is not one, a version this
 * code did not write, and (for a run a resume would continue or report) fields of the wrong shape,
 * node entries without a valid result, or node ids this graph does not have. Checked before the run
 * is resumed, reported or cleared, so a corrupt document is never taken for a finished run and
 * deleted, nor crashes a resume halfway.
 */
export function storedRunProblem(snapshot: MultiAgentSnapshot, graphNodes: ReadonlySet<string>): string | undefined {
  const state = snapshot.state as Obj;
  const status = state['status'];
  if (typeof status !== 'string' || !STATUSES.has(status))
    return `its status is ${JSON.stringify(status) ?? 'missing'}, not one of ${[...STATUSES].join(', ')}`;
  if (state['version'] !== undefined && state['version'] !== 1)
    return `it has version ${JSON.stringify(state['version'])}; this @skein/graph reads version 1`;
  if (!isUnfinished(status) && status !== 'completed' && status !== 'failed') return undefined;
  for (const [field, ok, expected] of FIELDS) if (!ok(state[field])) return `its ${field} is not ${expected}`;
  for (const [id, entry] of Object.entries(snapshot.nodes)) {
    const problem = nodeEntryProblem(id, entry as Obj);
    if (problem) return problem;
  }
  const unknown = [...new Set(namedNodes(state, snapshot.nodes))].filter((id) => !graphNodes.has(id));
  if (unknown.length > 0)
    return `it names node(s) ${unknown.map((id) => JSON.stringify(id)).join(', ')}, which this graph does not have (nodes: ${[...graphNodes].join(', ')}); resume it with the graph it was started with`;
  return undefined;
}
