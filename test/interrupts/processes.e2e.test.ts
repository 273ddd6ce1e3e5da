/**
 * Durable approvals across real processes: one process runs the refund desk until it asks for
 * approval, another (built from scratch on the same FileSessionManager directory) answers and
 * finishes, for a Graph and a Swarm; also when the asking process is killed with SIGKILL after the
 * pause was stored, and when the answer is a denial. Refunds are counted across processes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const worker = path.join(repoRoot, 'test/interrupts/desk-worker.ts');

interface Outcome {
  status: string;
  interrupts: { id: string; name: string; source: string }[];
  text: string | undefined;
  transitions: string[];
}

/** Runs the worker; `kill` SIGKILLs it once it printed its outcome (the pause is stored by then). */
function run(args: string[], kill = false): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=@skein/source', '--import', 'tsx', worker, ...args], {
      cwd: repoRoot,
    });
    let out = '';
    let err = '';
    let outcome: Outcome | undefined;
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line && !outcome) {
        outcome = JSON.parse(line) as Outcome;
        if (kill) child.kill('SIGKILL');
      }
    });
    child.once('exit', (code, signal) => {
      if (outcome && (code === 0 || signal === 'SIGKILL')) resolve(outcome);
      else reject(new Error(`worker ${args.join(' ')} exited with ${code ?? signal}: ${err}`));
    });
  });
}

async function refundsIn(dir: string): Promise<string[]> {
  const text = await fs.readFile(path.join(dir, 'refunds.log'), 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean);
}

describe.each(['graph', 'swarm'])('%s approval across processes', (shape) => {
  it('asks in one process and finishes in another after a yes; the refund runs once', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), `skein-approval-${shape}-`));
    const asked = await run([shape, dir, 'ask']);
    expect(asked.status).toBe('interrupted');
    expect(asked.interrupts).toMatchObject([{ id: 'r1#approval', name: 'approval', source: 'refund' }]);
    expect(await refundsIn(dir)).toEqual([]);
    const done = await run([
      shape,
      dir,
      'answer',
      JSON.stringify({ interruptId: 'r1#approval', response: { approved: true } }),
    ]);
    expect(done.status).toBe('completed');
    expect(done.text).toBe('Refund done.');
    expect(done.transitions).toContain('interrupt');
    expect(done.transitions).toContain('resume');
    expect(await refundsIn(dir)).toEqual(['42:80']);
  });

  it('survives a SIGKILL after the pause was stored; a denial reaches the model and nothing is refunded', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), `skein-approval-kill-${shape}-`));
    const asked = await run([shape, dir, 'ask-hold'], true);
    expect(asked.status).toBe('interrupted');
    const bad = await run([shape, dir, 'answer', JSON.stringify({ interruptId: 'nope', response: true })]).catch(
      (e: unknown) => e,
    );
    expect(String(bad)).toContain('No pending interrupt has id "nope". Pending: "r1#approval"');
    const done = await run([
      shape,
      dir,
      'answer',
      JSON.stringify({ interruptId: 'r1#approval', response: { approved: false, message: 'too much' } }),
    ]);
    expect(done.status).toBe('completed');
    expect(done.text).toBe('Refund declined.');
    expect(await refundsIn(dir)).toEqual([]);
  });
});
