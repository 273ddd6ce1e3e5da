/**
 * Crash campaigns: each trial runs a shape uninterrupted, then again in a process killed with
 * SIGKILL at seeded random moments (up to 3 kills), resumed in a fresh process each time, and checks
 * the invariants of DESIGN section 5 against the uninterrupted run. Returns the violations found.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TrialResult, Shape } from './crash-shapes.js';
import { seededRandom } from './seeded.js';
import { sideEffectViolations, startedNodes } from './side-effects.js';
import { mirrorSql, prefixOf, storeEnv, storeName, type S3Store, type TrialStore } from './trial-store.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const worker = fileURLToPath(new URL('./crash-worker.ts', import.meta.url));
const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;

interface Process {
  /** ms from `started` to exit, when it exited by itself. */
  ranMs: number | undefined;
  killed: boolean;
  /** A worker that failed because its server was killed: what it said. */
  stderr?: string;
}

/** Kills the store's server instead of the worker (PostgreSQL), and starts it again. */
export interface Killer {
  killServer(): Promise<void>;
  /** Whether the server was killed since the last restart. */
  killed(): boolean;
  restart(): Promise<void>;
  /** What a worker's error must name. */
  store: string;
}

export type { S3Store } from './trial-store.js';

/** Runs the worker; kills it `killAfterMs` after it reports `started` (never, when undefined). */
function runWorker(
  shape: Shape,
  dir: string,
  seed: number,
  killAfterMs: number | undefined,
  store: TrialStore | undefined,
  kill?: Killer,
  modelCalls?: number,
): Promise<Process> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...storeEnv(store, dir) };
    if (modelCalls !== undefined) env['SKEIN_CRASH_BUDGET'] = String(modelCalls);
    const child = spawn(
      process.execPath,
      ['--conditions=@skein/source', '--import', tsx, worker, shape, dir, String(seed)],
      { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let started: number | undefined;
    let timer: NodeJS.Timeout | undefined;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (started === undefined && chunk.toString('utf8').includes('started')) {
        started = performance.now();
        if (killAfterMs !== undefined && kill) timer = setTimeout(() => void kill.killServer(), killAfterMs);
        else if (killAfterMs !== undefined) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (signal === 'SIGKILL') return resolve({ ranMs: undefined, killed: true });
      if (kill && kill.killed() && code !== 0) return resolve({ ranMs: undefined, killed: true, stderr });
      if (code !== 0) return reject(new Error(`worker exited with ${code}: ${stderr.slice(-2000)}`));
      resolve({ ranMs: started === undefined ? 0 : performance.now() - started, killed: false });
    });
  });
}

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(join(entry.parentPath, entry.name));
  }
  return out;
}

/** Copies a trial's stored S3 objects into `dir/s3` so the file checks read them. */
async function mirror(s3: S3Store, dir: string): Promise<void> {
  const client = new S3Client(s3.clientConfig);
  try {
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket: s3.bucket,
          Prefix: `${prefixOf(dir)}/`,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const { Key } of page.Contents ?? []) {
        if (!Key) continue;
        const body = await (
          await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key }))
        ).Body?.transformToString('utf8');
        const local = join(dir, 's3', Key.slice(prefixOf(dir).length + 1));
        await mkdir(dirname(local), { recursive: true });
        await writeFile(local, body ?? '');
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  } finally {
    client.destroy();
  }
}

/** Stored messages of each agent of the session, as `role:block kinds|text`. */
async function histories(
  dir: string,
): Promise<Record<string, { role: string; text: string; uses: string[]; results: string[] }[]>> {
  const out: Record<string, { role: string; text: string; uses: string[]; results: string[] }[]> = {};
  const add = (agent: string, message: { role: string; content: Record<string, unknown>[] }): void => {
    const content = message.content;
    (out[agent] ??= []).push({
      role: message.role,
      text: content.map((b) => (typeof b['text'] === 'string' ? b['text'] : '')).join(''),
      uses: content.flatMap((b) => (b['toolUse'] ? [String((b['toolUse'] as { toolUseId: string }).toolUseId)] : [])),
      results: content.flatMap((b) =>
        b['toolResult'] ? [String((b['toolResult'] as { toolUseId: string }).toolUseId)] : [],
      ),
    });
  };
  // A swarm stores its conversation as turn documents; those past the state's committed `turns` are not part of it.
  const all = await files(dir);
  for (const doc of all.filter((f) => f.endsWith('multi_agent.json'))) {
    const committed = (JSON.parse(await readFile(doc, 'utf8')) as { state?: { turns?: number } }).state?.turns;
    if (committed === undefined) continue;
    const turnFiles = all.filter(
      (f) => f.startsWith(join(dirname(doc), 'nodes')) && /node_run\.turn\.\d+\.json$/.test(f),
    );
    const turns = await Promise.all(
      turnFiles.map(
        async (f) =>
          JSON.parse(await readFile(f, 'utf8')) as {
            seq: number;
            node: string;
            newItems: { role: string; content: Record<string, unknown>[] }[];
          },
      ),
    );
    for (const turn of turns.filter((t) => t.seq < committed).sort((a, b) => a.seq - b.seq))
      for (const m of turn.newItems) add(`swarm:${turn.node}`, m);
  }
  for (const file of all
    .filter((f) => /message_\d+\.json$/.test(f))
    .sort((a, b) => Number(/(\d+)\.json$/.exec(a)?.[1]) - Number(/(\d+)\.json$/.exec(b)?.[1]))) {
    const agent = /agent_([^/]+)\/messages/.exec(file)?.[1] ?? '?';
    add(
      agent,
      (JSON.parse(await readFile(file, 'utf8')) as { message: { role: string; content: Record<string, unknown>[] } })
        .message,
    );
  }
  return out;
}

/**
 * Transitions as a sorted multiset. A join's `from` names whichever source arrived last, and a graph's
 * `complete` the node that finished last: both depend on timing, so they are left out.
 */
const multiset = (items: readonly string[]): string[] =>
  items
    .map((t) => (t.endsWith(':join') ? `*>${t.split('>')[1]}` : t.endsWith('>null:complete') ? '*>null:complete' : t))
    .sort();
const sortedEntries = (o: Record<string, string>): string =>
  JSON.stringify(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

export interface TrialReport {
  shape: Shape;
  seed: number;
  kills: number;
  /** Processes a seeded budget stopped mid-run (resumed by the next process, without a budget). */
  budgetStops: number;
  violations: string[];
  replay: string;
}

/** One trial; `base` is the uninterrupted run's result and histories for this shape and seed. */
export async function crashTrial(
  shape: Shape,
  seed: number,
  store?: TrialStore,
  killer?: Killer,
): Promise<TrialReport> {
  const s3 = store && !('kind' in store) ? store : undefined;
  const random = seededRandom(seed * 7919 + shape.length);
  const work = await mkdtemp(join(tmpdir(), `skein-crash-${shape}-${seed}-`));
  const violations: string[] = [];
  let kills = 0;
  let budgetStops = 0;
  // A separate stream, so that the kill schedule of a seed is the one it had before budget stops existed.
  const budgetRandom = seededRandom(seed * 104_729 + shape.length);
  const budgetAt = budgetRandom() < 0.5 ? Math.floor(budgetRandom() * 3) : -1;
  const budgetCalls = 1 + Math.floor(budgetRandom() * 12);
  try {
    const cleanDir = join(work, 'clean');
    const crashDir = join(work, 'crash');
    const clean = await runWorker(shape, cleanDir, seed, undefined, store);
    const expected = JSON.parse(await readFile(join(cleanDir, 'result.json'), 'utf8')) as TrialResult;
    const span = Math.max(20, (clean.ranMs ?? 100) * 1.1);
    const planned = 1 + Math.floor(random() * 3);
    for (let i = 0; i < planned; i++) {
      if (budgetAt >= 0 && i === budgetAt % planned) {
        await runWorker(shape, crashDir, seed, undefined, store, undefined, budgetCalls);
        budgetStops++;
      }
      const at = random() < 0.15 ? random() * 5 : random() * span; // some kills in the first milliseconds
      const p = await runWorker(shape, crashDir, seed, at, store, killer);
      if (killer?.killed()) {
        if (p.stderr !== undefined && !p.stderr.includes(killer.store))
          violations.push(`the run failed without naming the store: ${p.stderr.slice(-500)}`);
        await killer.restart();
      }
      if (!p.killed) break;
      kills++;
    }
    await runWorker(shape, crashDir, seed, undefined, store);
    if (s3) await Promise.all([mirror(s3, cleanDir), mirror(s3, crashDir)]);
    if (store && 'kind' in store) await Promise.all([mirrorSql(store, cleanDir), mirrorSql(store, crashDir)]);
    const actual = JSON.parse(await readFile(join(crashDir, 'result.json'), 'utf8')) as TrialResult;
    if (actual.status !== 'completed') violations.push(`status ${actual.status}`);
    if (sortedEntries(actual.texts) !== sortedEntries(expected.texts) && shape !== 'agent')
      violations.push(`results differ: ${JSON.stringify(actual.texts)} vs ${JSON.stringify(expected.texts)}`);
    // A resume after a crash adds `resume` transitions (the uninterrupted run has one per approval
    // answered); a budget stop adds a `budget` one.
    const resumeOrStop = (t: string): boolean => t.endsWith(':resume') || t.endsWith(':budget');
    const withoutResume = actual.transitions.filter((t) => !resumeOrStop(t));
    const expectedWithoutResume = expected.transitions.filter((t) => !resumeOrStop(t));
    if (JSON.stringify(multiset(withoutResume)) !== JSON.stringify(multiset(expectedWithoutResume)))
      violations.push(
        `transitions differ: ${JSON.stringify(actual.transitions)} vs ${JSON.stringify(expected.transitions)}`,
      );
    if (shape !== 'agent' && !actual.transitions[0]?.endsWith(':start'))
      violations.push(`history does not begin with start: ${actual.transitions[0]}`);
    const commits = (await readFile(join(crashDir, 'commits.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean);
    if (shape !== 'agent') {
      const committed = commits.filter((c) => /^[^ ]+>[^ ]*:\w+$/.test(c) && !resumeOrStop(c));
      const twice = committed.filter((c, i) => committed.indexOf(c) !== i);
      if (twice.length > 0) violations.push(`committed twice: ${twice.join(', ')}`);
      const cleanCommits = (await readFile(join(cleanDir, 'commits.log'), 'utf8')).split('\n').filter(Boolean);
      const [ran, shouldRun] = [startedNodes(commits), startedNodes(cleanCommits)];
      if (actual.source !== 'stored' && JSON.stringify(ran) !== JSON.stringify(shouldRun))
        violations.push(`nodes run ${JSON.stringify(ran)} vs ${JSON.stringify(shouldRun)}`);
    }
    violations.push(...sideEffectViolations(commits, shape === 'agent'));
    const all = await files(crashDir);
    for (const f of all.filter((x) => x.endsWith('.json'))) {
      try {
        JSON.parse(await readFile(f, 'utf8'));
      } catch {
        violations.push(`${f} does not parse`);
      }
    }
    // A final process that only read the stored result may leave a dead writer's lock and temp files
    // (the next writer removes them); one that ran must leave nothing but a released S3 lease (kept:
    // its ETag is the session's write generation) and the file store's generation (`.skein.writer`).
    const held = await Promise.all(
      all.map(async (f) =>
        /\.skein-lease/.test(f)
          ? !(await readFile(f, 'utf8')).includes('"released_at"')
          : /\.tmp|\.skein\.lock/.test(f),
      ),
    );
    const leftovers = all.filter((_, i) => held[i]);
    if (leftovers.length > 0 && actual.source !== 'stored') violations.push(`left behind: ${leftovers.join(', ')}`);
    const [got, want] = [await histories(crashDir), await histories(cleanDir)];
    if (Object.keys(want).length === 0) violations.push('the uninterrupted run stored no messages: nothing to compare');
    for (const agent of new Set([...Object.keys(got), ...Object.keys(want)])) {
      const messages = got[agent] ?? [];
      const used = messages.flatMap((m) => m.uses);
      const answered = new Set(messages.flatMap((m) => m.results));
      const orphans = used.filter((u) => !answered.has(u));
      if (orphans.length > 0) violations.push(`${agent}: toolUse without toolResult: ${orphans.join(', ')}`);
      if (
        shape !== 'agent' &&
        JSON.stringify(messages.map((m) => m.text)) !== JSON.stringify((want[agent] ?? []).map((m) => m.text))
      ) {
        violations.push(
          `${agent}: stored history differs: ${JSON.stringify(messages.map((m) => m.text))} vs ${JSON.stringify((want[agent] ?? []).map((m) => m.text))}`,
        );
      }
    }
    // The stored history, not the side log: a kill between the store and the log line loses the line.
    const prompts = Object.values(got)
      .flat()
      .filter((m) => m.role === 'user' && m.text === 'Check my orders').length;
    if (shape === 'agent' && prompts !== 1) violations.push(`the prompt was stored ${prompts} times`);
    // The standalone agent is stored under its default id; its history starts with the few-shot pair.
    const fewShot = (h: typeof got): string =>
      (h['default'] ?? [])
        .slice(0, 2)
        .map((m) => `${m.role}:${m.text}`)
        .join('|');
    if (shape === 'agent' && (fewShot(got) !== fewShot(want) || !fewShot(want).startsWith('user:Example')))
      violations.push(`few-shot messages lost: ${fewShot(got)} vs ${fewShot(want)}`);
  } finally {
    if (violations.length === 0) await rm(work, { recursive: true, force: true });
  }
  return {
    shape,
    seed,
    kills,
    budgetStops,
    violations,
    replay: `npm run reliability -- --campaign ${killer ? 'server-crash' : 'crash'}${store ? ` --store ${storeName(store)}` : ''} --shape ${shape} --seed ${seed} --trials 1`,
  };
}
