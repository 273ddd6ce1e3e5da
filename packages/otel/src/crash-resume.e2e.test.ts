/**
 * A run killed with SIGKILL in one process and resumed from its FileSessionManager session in
 * another: the resumed run's span links to the trace the killed process exported its finished spans under.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const worker = fileURLToPath(new URL('./test-support/crash-worker.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

interface SpanLine {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  links: string[];
  runId?: string;
}

/** Runs the worker; in `crash` mode it is SIGKILLed as soon as it says node b runs. */
function run(dir: string, mode: 'crash' | 'resume'): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=@skein/source', '--import', 'tsx', worker, dir, mode], {
      cwd: repoRoot,
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (mode === 'crash' && out.includes('RUNNING b')) child.kill('SIGKILL');
    });
    child.once('exit', (code, signal) => {
      if ((mode === 'crash' && signal === 'SIGKILL') || (mode === 'resume' && code === 0)) resolve(out);
      else reject(new Error(`worker ${mode} exited with ${code ?? signal}: ${err}`));
    });
  });
}

const spansOf = async (dir: string, mode: string): Promise<SpanLine[]> =>
  (await readFile(join(dir, `spans-${mode}.jsonl`), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as SpanLine);

describe('a run resumed in a new process after a crash', () => {
  it('links to the trace the killed process exported its finished spans under', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-otel-crash-'));
    try {
      await run(dir, 'crash');
      const killed = await spansOf(dir, 'crash');
      // The run span never ended (the process died); node a's spans did, under the run's anchor trace.
      expect(killed.map((s) => s.name).sort()).toEqual(['chat scripted', 'execute_node a', 'invoke_agent a']);
      const originalTrace = killed[0]?.traceId;
      expect(new Set(killed.map((s) => s.traceId))).toEqual(new Set([originalTrace]));

      expect(await run(dir, 'resume')).toContain('"status":"completed"');
      const resumed = await spansOf(dir, 'resume');
      expect(resumed.map((s) => s.name).sort()).toEqual([
        'chat scripted',
        'execute_node b',
        'invoke_agent b',
        'invoke_workflow pipeline',
      ]);
      const runSpan = resumed.find((s) => s.name === 'invoke_workflow pipeline') as SpanLine;
      expect(runSpan.links).toEqual([originalTrace]);
      expect(runSpan.runId).toBe(originalTrace);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
