/**
 * One writer of a two-writer trial: opens the session `race` in `dir` (FileSessionManager, or
 * S3SessionManager when `SKEIN_CRASH_S3` holds `{ bucket, prefix, clientConfig }`), restores it,
 * prints `ready`, waits for `go` on stdin, then appends 5 turns `<who>-<i>` with seeded model waits
 * (with `SKEIN_TWO_WRITERS=swarm`: runs one Swarm task `<who>-task` on the session instead) and
 * prints one JSON line: `{ outcome: 'ok' | 'conflict' | 'error', turns, error? }`.
 */
import { createInterface } from 'node:readline';
import { Agent, SessionConflictError, type SessionManager } from '@skein/core';
import { Swarm } from '@skein/swarm';
import { ScriptedModel } from '@skein/core/testing';
import { keyed } from './seeded.js';
import { workerSessionManager } from './trial-store.js';

const [dir, who, seedText] = process.argv.slice(2);
if (!dir || !who || !seedText) throw new Error('usage: two-writer-worker.ts <dir> <who> <seed>');
const seed = Number(seedText);
const TURNS = 5;

function open(): SessionManager & { close(): Promise<void> } {
  return workerSessionManager('race', dir!);
}

const sessionManager = open();
const answers = Array.from({ length: TURNS }, (_, i) => ({
  text: `${who} answer ${i}`,
  delayMs: 2 + Math.floor(keyed(seed, `${who}:${i}`) * 13),
}));
const swarmMode = process.env['SKEIN_TWO_WRITERS'] === 'swarm';
const wait = (key: string): number => 2 + Math.floor(keyed(seed, `${who}:${key}`) * 13);
const agent = swarmMode ? undefined : new Agent({ model: new ScriptedModel(answers), sessionManager });
const swarm = swarmMode
  ? new Swarm({
      id: 'desk',
      sessionManager,
      nodes: [
        new Agent({
          name: 'triage',
          model: new ScriptedModel([
            {
              text: 'To billing.',
              toolUses: [{ name: 'transfer_to_billing', input: {}, toolUseId: `${who}-handoff` }],
              delayMs: wait('triage'),
            },
          ]),
        }),
        new Agent({
          name: 'billing',
          model: new ScriptedModel([{ text: `${who} billing answer`, delayMs: wait('billing') }]),
        }),
      ],
    })
  : undefined;
const report = (outcome: 'ok' | 'conflict' | 'error', turns: number, error?: unknown): void => {
  const message = error instanceof Error ? `${error.constructor.name}: ${error.message}` : undefined;
  process.stdout.write(`${JSON.stringify({ outcome, turns, ...(message ? { error: message } : {}) })}\n`);
};

let turns = 0;
try {
  if (swarm)
    await swarm.lastResult(); // restores (reads) the session before the race
  else await agent!.initialize();
  process.stdout.write('ready\n');
  for await (const line of createInterface({ input: process.stdin })) if (line === 'go') break;
  await new Promise((resolve) => setTimeout(resolve, keyed(seed, `${who}:start`) * 10));
  if (swarm) {
    const result = await swarm.invoke(`${who}-task`);
    if (result.status !== 'completed') throw new Error(`the swarm ended ${result.status}`);
    turns = 1;
  } else for (; turns < TURNS; turns++) await agent!.invoke(`${who}-${turns}`);
  report('ok', turns);
} catch (error) {
  process.stdout.write('ready\n');
  report(SessionConflictError.is(error) ? 'conflict' : 'error', turns, error);
}
await sessionManager.close().catch(() => undefined);
