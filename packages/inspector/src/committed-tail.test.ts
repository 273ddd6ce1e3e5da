/**
 * A run committed by a writer killed right after its final state document (the commit point), before
 * it appended the step's transitions: on disk the run is `completed` and its `complete` transition
 * file is missing. Every reader sees the committed step whole (issue 46): `skein show`, `history()`,
 * `stateAt()`, `skein sessions copy`, and on disk the commit point carries it; no reader writes.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionManager, FileSessionRepository } from '@skein/session-file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './index.js';
import { captureIo } from './test-support/capture-io.js';
import { supportGraph } from './test-support/fixtures.js';
import { cutAfterFinalCommit } from './test-support/final-commit.js';

let dir = '';
const fsm = (sessionId: string): FileSessionManager => new FileSessionManager({ sessionId, storageDir: dir });

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo();
  const code = await runCli(args, io);
  return { code, out: io.out(), err: io.err() };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-inspector-tail-'));
  const sm = fsm('cut');
  await supportGraph(sm).invoke('I was charged twice for order 42');
  await sm.close();
  await cutAfterFinalCommit(dir, 'cut', 'support');
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Row = { seq: number; kind: string; from: string | null; to: string | null };
const kinds = (ts: readonly Row[]): string[] => ts.map((t) => `${t.seq}:${t.kind}`);

describe('a completed run whose last transition a crash cut after the commit point', () => {
  it('skein show lists its last transition, numbered after the stored ones', async () => {
    const shown = await cli('show', dir, 'cut', '--json');
    expect(shown.code).toBe(0);
    const run = (JSON.parse(shown.out) as { runs: { status: string; transitions: Row[] }[] }).runs[0];
    expect(run?.status).toBe('completed');
    expect(kinds(run?.transitions ?? []).at(-1)).toBe('4:complete');
    expect(run?.transitions.at(-1)).toMatchObject({ from: 'summary', to: null });
  });

  it('history() and stateAt() show it in the run’s last step', async () => {
    const graph = supportGraph(fsm('cut'));
    const last = (await graph.history()).at(-1);
    expect(last?.status).toBe('completed');
    expect(last?.transitions.map((t) => t.kind)).toEqual(['complete']);
    const state = await graph.stateAt(last?.step ?? -1);
    expect(kinds(state.transitions)).toEqual(['0:start', '1:edge', '2:edge', '3:join', '4:complete']);
  });

  it('on disk the commit point carries it, and a copy stores it as a transition like the others; readers wrote nothing', async () => {
    const runDir = join(dir, 'session_cut', 'multi_agents', 'multi_agent_support');
    const doc = JSON.parse(await readFile(join(runDir, 'multi_agent.json'), 'utf8')) as {
      state: { status: string; transitionCount: number; lastTransitions: { kind: string }[] };
    };
    expect(doc.state).toMatchObject({
      status: 'completed',
      transitionCount: 5,
      lastTransitions: [{ kind: 'complete' }],
    });
    const copy = join(dir, 'copy');
    const copied = await cli('sessions', 'copy', dir, copy);
    expect(copied.err).toBe('');
    expect(copied.code).toBe(0);
    const copiedDir = join(copy, 'session_cut', 'multi_agents', 'multi_agent_support', 'transitions');
    const last = JSON.parse(await readFile(join(copiedDir, 'transition_4.json'), 'utf8')) as Row;
    expect(last).toMatchObject({ seq: 4, kind: 'complete', from: 'summary', to: null });
    // The session read is as it was: reading never repairs (only a writer that reopens it appends).
    expect((await readdir(join(runDir, 'transitions'))).sort()).toEqual(
      [0, 1, 2, 3].map((n) => `transition_${n}.json`),
    );
    expect(await new FileSessionRepository({ storageDir: dir }).readTransitions('cut', 'support')).toHaveLength(4);
  });
});
