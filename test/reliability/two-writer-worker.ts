/**
 * One writer of a two-writer trial: opens the session `race` in `dir` (FileSessionManager, or
 * S3SessionManager when `SKEIN_CRASH_S3` holds `{ bucket, prefix, clientConfig }`), restores it,
 * prints `ready`, waits for `go` on stdin, then appends 5 turns `<who>-<i>` with seeded model waits,
 * printing `turn <i>` after each (with `SKEIN_TWO_WRITERS=swarm`: runs one Swarm task `<who>-task` on
 * the session instead, then prints `turn 0`) and prints one JSON line:
 * `{ outcome: 'ok' | 'conflict' | 'error', turns, error? }`. Then it waits for its stdin to end (the
 * campaign holds it open while the other writer loads) and closes its session manager. With
 * `SKEIN_TWO_WRITERS_PAUSE=<k>` it prints `paused` before its turn k (its run, for a swarm: k = 0) and
 * waits for `continue`.
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Agent, SessionConflictError, type SessionManager } from '@skein/core';
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
const Swarm = swarmMode ? (await import('@skein/swarm')).Swarm : undefined;
const swarm = Swarm
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

const input = createInterface({ input: process.stdin });
const ended = once(input, 'close');
const line = (wanted: string): Promise<void> =>
  new Promise<void>((resolve) => {
    input.on('line', (l) => l === wanted && resolve());
    void ended.then(() => resolve());
  });
const go = line('go');
const resumed = line('continue');
const pauseAt = Number(process.env['SKEIN_TWO_WRITERS_PAUSE'] ?? -1);
const pause = async (turn: number): Promise<void> => {
  if (turn !== pauseAt) return;
  process.stdout.write('paused\n');
  await resumed;
};

let turns = 0;
try {
  if (swarm)
    await swarm.lastResult(); // restores (reads) the session before the race
  else await agent!.initialize();
  process.stdout.write('ready\n');
  await go;
  await new Promise((resolve) => setTimeout(resolve, keyed(seed, `${who}:start`) * 10));
  if (swarm) {
    await pause(0);
    const result = await swarm.invoke(`${who}-task`);
    if (result.status !== 'completed') throw new Error(`the swarm ended ${result.status}`);
    turns = 1;
    process.stdout.write('turn 0\n');
  } else {
    agent!.state.set('writer', who); // stored with the agent record after each turn: the last writer of the record
    for (; turns < TURNS; turns++) {
      await pause(turns);
      await agent!.invoke(`${who}-${turns}`);
      process.stdout.write(`turn ${turns}\n`);
    }
  }
  report('ok', turns);
} catch (error) {
  process.stdout.write('ready\n');
  report(SessionConflictError.is(error) ? 'conflict' : 'error', turns, error);
}
await ended; // the campaign ends stdin when this writer may give the session up
await sessionManager.close().catch(() => undefined);
