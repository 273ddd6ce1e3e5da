/**
 * Checks of a crash trial's fsynced side log (`commits.log`): one `epoch` line per process, then that
 * process's committed transitions (`from>to:kind`), node starts (`start <node>`), tool side effects
 * (`tool <agent> <toolUseId>`) and, for a standalone agent, stored messages
 * (`message <role> <kinds> [toolResult ids]`).
 */

interface Line {
  epoch: number;
  text: string;
}

function epochs(lines: readonly string[]): Line[] {
  let epoch = 0;
  const out: Line[] = [];
  for (const text of lines) {
    if (text === 'epoch') epoch++;
    else out.push({ epoch, text });
  }
  return out;
}

/**
 * A node whose completion was committed (a transition from it was stored) never starts again in a
 * later process; no tool side effect is repeated in one process, nor after what called it was
 * committed (the node's completion, or for an agent the stored toolResult).
 */
export function sideEffectViolations(lines: readonly string[], standaloneAgent: boolean): string[] {
  const log = epochs(lines);
  const out: string[] = [];
  const committedIn = new Map<string, number>();
  for (const { epoch, text } of log) {
    const transition = /^([^ >]+)>[^:]*:(\w+)$/.exec(text);
    // A pause (`interrupt`) is not a completion: the node runs again when answered.
    const kind = transition?.[2];
    const done = kind !== 'resume' && kind !== 'start' && kind !== 'interrupt' && kind !== 'budget';
    if (transition && done && !committedIn.has(transition[1]!)) committedIn.set(transition[1]!, epoch);
    const stored = /^message user toolResult(?:,toolResult)* (.+)$/.exec(text);
    if (stored)
      for (const id of stored[1]!.split(',')) if (!committedIn.has(`tool:${id}`)) committedIn.set(`tool:${id}`, epoch);
  }
  // Payments deduplicate by idempotency key: a refund cut by a kill and run again is paid once.
  const pays = log.filter((l) => l.text.startsWith('pay ')).map((l) => l.text);
  for (const p of new Set(pays.filter((p, i) => pays.indexOf(p) !== i))) out.push(`${p.slice(4)} paid twice`);
  const seen = new Set<string>();
  // A process that ended at its budget committed what it did: a tool that ran in it never runs again.
  const stops = new Set(log.filter((l) => l.text === 'stopped').map((l) => l.epoch));
  const ranIn = new Map<string, number[]>();
  for (const { epoch, text } of log) {
    const start = /^start (.+)$/.exec(text);
    if (start && epoch > (committedIn.get(start[1]!) ?? Infinity))
      out.push(
        `${start[1]} started again in process ${epoch} after its completion was committed in process ${committedIn.get(start[1]!)}`,
      );
    const tool = /^tool (\S+) (\S+)$/.exec(text);
    if (!tool) continue;
    const [, agent, id] = tool as unknown as [string, string, string];
    if (seen.has(`${epoch} ${agent} ${id}`)) out.push(`tool ${id} of ${agent} ran twice in process ${epoch}`);
    seen.add(`${epoch} ${agent} ${id}`);
    const earlier = ranIn.get(`${agent} ${id}`) ?? [];
    const stop = earlier.find((e) => stops.has(e) && e < epoch);
    if (stop !== undefined)
      out.push(`tool ${id} of ${agent} ran again in process ${epoch} after a budget stop in process ${stop}`);
    ranIn.set(`${agent} ${id}`, [...earlier, epoch]);
    const committed = committedIn.get(standaloneAgent ? `tool:${id}` : agent);
    if (committed !== undefined && epoch > committed)
      out.push(`tool ${id} of ${agent} ran again in process ${epoch} after it was committed in process ${committed}`);
  }
  return out;
}

/** The nodes started at least once, to compare the crashed run's with the uninterrupted run's. */
export function startedNodes(lines: readonly string[]): string[] {
  return [...new Set(lines.flatMap((l) => (l.startsWith('start ') ? [l.slice(6)] : [])))].sort();
}
