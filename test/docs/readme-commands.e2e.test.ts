import { spawn, execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  normalizeOutput,
  printedCommands,
  readmeCommands,
  readmeSamples,
  sampleMatches,
  type ReadmeSample,
} from './readme-commands.js';

// Every shell command of the root and the support desk's READMEs runs as written, in order, in a
// fresh copy of the repository (its files as git lists them, the installed node_modules beside: as a
// fresh clone after `npm ci`), with no provider credentials; so does every command those programs
// print as a hint. A README output shown after `$ <command>` must be what that command printed
// (times, ports and keys aside). The few commands not run say why below; a new command nobody
// planned for fails the test.

const root = fileURLToPath(new URL('../../', import.meta.url));
const READMES = ['README.md', 'examples/support-desk/README.md'];

/** How a command runs: to its end with `input` on stdin (exit 0), or as a server until `ready`, or not at all (`skip`: why). */
interface Plan {
  skip?: string;
  /** A server: it has run as written once it printed this; then it is stopped (SIGTERM). */
  ready?: RegExp;
  input?: string;
  /** A server this command needs, started first (a README command). */
  needs?: string;
  /** An OTLP/HTTP collector on the command's port, which must receive spans. */
  collector?: boolean;
}

const ASKED = 'I was charged twice for order 42\n';

/** What to do with each command (first match). */
const PLANS: [RegExp, Plan][] = [
  [
    /^npm (test|run test:all|run lint)$/,
    { skip: "the project's own checks: CI runs them (.ci/run), and this test is one of them" },
  ],
  [
    /^npm run (build|format|bench)\b/,
    { skip: 'builds or rewrites the working tree, or times the machine: not a reader check' },
  ],
  [/^npm install\b/, { skip: 'installs from the npm registry into your own app' }],
  [/^(npx skein|npm run skein --)$/, { skip: "the command's name in a sentence" }],
  [/^npx vitest /, { skip: 'runs one test file: the test suite runs it' }],
  [
    /--s3 s3:\/\/my-bucket|--postgres postgres:\/\/desk@db/,
    { skip: 'needs your bucket or database: src/desk.e2e.test.ts runs the desk on radosgw and PostgreSQL' },
  ],
  [
    /desk:restate/,
    { skip: 'starts restate-server (fetched from the npm registry on first use): src/desk.e2e.test.ts runs it' },
  ],
  [
    /desk:web:screenshots/,
    { skip: 'drives Chromium through the pages for a minute: the desk browser tests run the same pages' },
  ],
  [/^npm run desk:web\b/, { ready: /supervisor page: +http/ }],
  [/^npm run studio\b/, { ready: /skein studio: http:\/\/127\.0\.0\.1:\d+/ }],
  [/^npm run desk:a2a\b/, { ready: /\[a2a\] card: / }],
  [
    /--refund-remote http:\/\/127\.0\.0\.1:4100/,
    { needs: 'npm run desk:a2a -- --serve refund --port 4100', input: 'Please refund order 7\n' },
  ],
  [/^OTEL_EXPORTER_OTLP_ENDPOINT=/, { collector: true }],
  [/^npm run desk\b/, { input: ASKED }],
  [/^(npm start|npm run (desk:eval|skein|progress|otel)\b)/, {}],
  [/^printf .* > lines\.txt && npm run desk -- --script lines\.txt/, {}],
];

const planOf = (command: string): Plan | undefined => PLANS.find(([pattern]) => pattern.test(command))?.[1];

/** The environment of a reader's shell: none of this test's npm variables, no provider credentials. */
function readerEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') && k !== 'INIT_CWD'),
  ) as NodeJS.ProcessEnv;
  for (const key of [
    'ANTHROPIC_API_KEY',
    'OPENAI_API_KEY',
    'OPENAI_BASE_URL',
    'AWS_ACCESS_KEY_ID',
    'AWS_PROFILE',
    'DATABASE_URL',
  ])
    env[key] = '';
  return { ...env, NO_COLOR: '1' };
}

let tree = '';
const ports = new Map<string, number>();
const ran = new Map<string, string>();
/** The commands run so far (as written). */
const done = new Set<string>();

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The command with each fixed port it names (4000, 4100, 4318, 8080) on a free one, the same one every time. */
async function onFreePorts(command: string): Promise<string> {
  let out = command;
  for (const fixed of command.match(/\b(4000|4100|4318|8080)\b/g) ?? []) {
    if (!ports.has(fixed)) ports.set(fixed, await freePort());
    out = out.replaceAll(fixed, String(ports.get(fixed)));
  }
  return out;
}

interface Run {
  code: number | null;
  out: string;
  stop(): Promise<void>;
}

/** Runs `command` in the fresh tree with bash; with `ready`, resolves once it printed that (still running). */
function start(command: string, input: string, ready?: RegExp): Promise<Run> {
  const child = spawn('bash', ['-c', command], { cwd: tree, env: readerEnv(), detached: true, stdio: 'pipe' });
  child.stdin.end(input);
  let out = '';
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const stop = async (): Promise<void> => {
    try {
      process.kill(-(child.pid as number), 'SIGTERM');
    } catch {
      // ended already
    }
    await closed;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => void stop().then(() => reject(new Error(`${command} did not finish in 240 s:\n${out}`))),
      240_000,
    );
    const read = (chunk: Buffer): void => {
      out += chunk.toString('utf8');
      if (ready?.test(out)) {
        clearTimeout(timer);
        resolve({ code: null, out, stop });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void closed.then((code) => {
      clearTimeout(timer);
      resolve({ code, out, stop });
    });
  });
}

/** An OTLP/HTTP endpoint that counts the trace exports it receives. */
async function collector(port: number): Promise<{ posts: () => number; close: () => Promise<void> }> {
  let posts = 0;
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/v1/traces') posts++;
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { posts: () => posts, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** What a program printed, without npm's own lines (`> desk`, `> node ...`). */
const programOutput = (out: string): string[] =>
  normalizeOutput(out)
    .split('\n')
    .filter((l) => !l.startsWith('> '))
    .join('\n')
    .trim()
    .split('\n');

/** The input a sample implies: what the customer typed (`customer> ...`) and the answers to approvals. */
function inputOf(sample: ReadmeSample): string {
  return sample.lines
    .flatMap((l) => {
      const said = /^customer> (.*)$/.exec(l)?.[1] ?? /Approve\? \[y\/N\] (.*)$/.exec(l)?.[1];
      return said === undefined ? [] : [`${said}\n`];
    })
    .join('');
}

/** Runs one command as its plan says; returns what it printed (a server: until it was ready). */
async function runCommand(command: string, sample: ReadmeSample | undefined): Promise<string> {
  const plan = planOf(command);
  if (!plan) throw new Error(`A README command nobody planned for: ${command} (add it to PLANS in this test).`);
  if (plan.skip) return '';
  const cleanup: (() => Promise<void>)[] = [];
  try {
    if (plan.needs) {
      const server = await start(await onFreePorts(plan.needs), '', planOf(plan.needs)?.ready);
      cleanup.push(server.stop);
    }
    const written = await onFreePorts(command);
    let received = (): number => 1;
    if (plan.collector) {
      const c = await collector(Number(/127\.0\.0\.1:(\d+)/.exec(written)?.[1]));
      received = c.posts;
      cleanup.push(c.close);
    }
    const run = await start(written, sample ? inputOf(sample) : (plan.input ?? ''), plan.ready);
    cleanup.push(run.stop);
    if (!plan.ready) expect([command, run.code], run.out).toEqual([command, 0]);
    expect(received(), `${command}: the collector received no spans`).toBeGreaterThan(0);
    return run.out;
  } finally {
    for (const close of cleanup.reverse()) await close();
  }
}

beforeAll(async () => {
  tree = await mkdtemp(join(tmpdir(), 'skein-readme-commands-'));
  const { stdout } = await promisify(execFile)('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root });
  for (const file of stdout.split('\0').filter(Boolean)) {
    await mkdir(dirname(join(tree, file)), { recursive: true });
    await copyFile(join(root, file), join(tree, file)).catch((e: NodeJS.ErrnoException) =>
      e.code === 'ENOENT' ? undefined : Promise.reject(e),
    );
  }
  await symlink(join(root, 'node_modules'), join(tree, 'node_modules'));
}, 120_000);

afterAll(async () => {
  if (tree) await rm(tree, { recursive: true, force: true });
});

describe('the READMEs as a reader runs them', () => {
  it('every shell command runs as written (and every command they print), and the outputs shown are what they print', async () => {
    const problems: string[] = [];
    for (const readme of READMES) {
      const text = await readFile(join(root, readme), 'utf8');
      const samples = readmeSamples(readme, text);
      for (const { command, where, inline } of readmeCommands(readme, text)) {
        // `npm ci && ...`: the copy is installed already; the rest runs.
        const written = command.replace(/^npm ci && /, '');
        // A command a sentence names again (`npm run desk`) has run where a block showed it.
        if (inline && done.has(written)) continue;
        done.add(written);
        const sample = samples.find((s) => s.command === written && !ran.has(`${readme} ${s.where}`));
        const out = await runCommand(written, sample).catch((e: Error) => {
          problems.push(`${where}: ${written}\n${e.message}`);
          return '';
        });
        if (sample) {
          ran.set(`${readme} ${sample.where}`, out);
          const shown = normalizeOutput(sample.lines.join('\n')).split('\n');
          if (!sampleMatches(shown, programOutput(out)))
            problems.push(
              `${sample.where}: the output shown for ${written} is not what it prints:\n${programOutput(out).join('\n')}`,
            );
        }
        for (const hint of printedCommands(programOutput(out).join('\n')).filter((c) => !ran.has(c))) {
          ran.set(hint, '');
          await runCommand(hint, undefined).catch((e: Error) =>
            problems.push(`printed by ${written}: ${hint}\n${e.message}`),
          );
        }
      }
      for (const sample of samples)
        if (!ran.has(`${readme} ${sample.where}`))
          problems.push(`${sample.where}: no command ${sample.command} in ${readme} ran it`);
    }
    expect(problems).toEqual([]);
    // No output shown in a README names a path of the machine it was made on.
    for (const readme of READMES)
      expect(
        (await readFile(join(root, readme), 'utf8')).match(/\/(work|home|tmp|Users)\/[\w./-]+/g) ?? [],
        readme,
      ).toEqual([]);
  }, 1_800_000);
});
