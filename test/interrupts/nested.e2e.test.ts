/**
 * Three levels across real processes (issue 29): a Graph whose node is a Swarm whose member uses an
 * agent as a tool, that agent without a session manager of its own. Its approval pause is stored in
 * the outer session, so after a SIGKILL a new process answers it once and the refund is paid once; a
 * budget stop inside it, SIGKILLed and resumed in a new process, pays once too.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const worker = path.join(repoRoot, 'test/interrupts/nested-worker.ts');

interface Outcome {
  status: string;
  interrupts: { id: string; source: string }[];
  text: string | undefined;
  calls: { approvals: number; refund: number };
  events: string[];
}

/** Runs the worker; with `--hold` it is SIGKILLed once it printed its outcome (its writes are done by then). */
function run(args: string[]): Promise<Outcome> {
  const hold = args.includes('--hold');
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
        if (hold) child.kill('SIGKILL');
      }
    });
    child.once('exit', (code, signal) => {
      if (outcome && (code === 0 || signal === 'SIGKILL')) resolve(outcome);
      else reject(new Error(`worker ${args.join(' ')} exited with ${code ?? signal}: ${err}`));
    });
  });
}

async function payments(dir: string): Promise<string[]> {
  const text = await fs.readFile(path.join(dir, 'payments.log'), 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean);
}

describe('graph > swarm > agent used as a tool, across processes', () => {
  it('an approval asked three levels down, SIGKILLed, is answered once in a new process; paid once', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-nested-approval-'));
    const asked = await run([dir, '80', 'run', '--hold']);
    expect(asked.status).toBe('interrupted');
    expect(asked.interrupts).toEqual([{ id: 'r1#approval', source: 'desk/refund/approvals' }]);
    expect(await payments(dir)).toEqual([]);
    const done = await run([
      dir,
      '80',
      'answer',
      JSON.stringify({
        interruptId: 'r1#approval',
        response: { approved: true },
      }),
    ]);
    expect(done.status).toBe('completed');
    expect(done.text).toBe('Your refund is on its way.');
    // The nested agent went on from its pause: its model answered once more, nothing was asked again.
    expect(done.calls).toEqual({ approvals: 1, refund: 1 });
    expect((await payments(dir)).map((p) => p.split(':').slice(0, 2).join(':'))).toEqual(['42:80']);
  });

  it('a budget stop inside the agent used as a tool, SIGKILLed, resumes in a new process; paid once', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-nested-budget-'));
    // intake, frontline, refund (asks approvals), approvals (asks issue_refund) = 4 calls; the 5th is refused.
    const stopped = await run([dir, '30', 'run', '--budget', '4', '--hold']);
    expect(stopped.status).toBe('budgetExceeded');
    expect(await payments(dir)).toHaveLength(1);
    const done = await run([dir, '30', 'resume']);
    expect(done.status).toBe('completed');
    expect(done.calls).toEqual({ approvals: 1, refund: 1 });
    expect((await payments(dir)).map((p) => p.split(':').slice(0, 2).join(':'))).toEqual(['42:30']);
  });

  it('streams every level of it with its path, the pause and the resume in two processes losing and doubling nothing', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-nested-stream-'));
    const asked = await run([dir, '80', 'run', '--stream', '--hold']);
    expect(asked.interrupts).toEqual([{ id: 'r1#approval', source: 'desk/refund/approvals' }]);
    const answer = JSON.stringify({
      interruptId: 'r1#approval',
      response: { approved: true },
    });
    const done = await run([dir, '80', 'answer', answer, '--stream']);
    expect(done.status).toBe('completed');
    const all = [...asked.events, ...done.events];
    const at = (p: string, type: string): string[] => all.filter((e) => e.startsWith(`${p}|${type}|`));
    const text = (p: string): string =>
      at(p, 'text')
        .map((e) => e.split('|')[2])
        .join('');
    // Every level reports at its own path; the outermost graph's own events have the empty path.
    expect(at('', 'nodeStart')).toEqual(['|nodeStart|', '|nodeStart|', '|nodeStart|']); // intake, desk, desk again
    expect(at('desk', 'nodeStart').length).toBeGreaterThan(0); // the swarm's own, at its node's path
    expect(text('intake')).toBe('A refund request.');
    expect(text('desk/refund')).toBe('Your refund is on its way.');
    // The nested approval: asked once in the first process, paid once in the second, its answer's text once.
    expect(asked.events).toContain('desk/refund/approvals|interrupt|approvals');
    expect(asked.events.filter((e) => e.startsWith('desk/refund/approvals|toolResult|'))).toEqual([]);
    expect(done.events.filter((e) => e.startsWith('desk/refund/approvals|toolResult|'))).toEqual([
      'desk/refund/approvals|toolResult|r1',
    ]);
    expect(text('desk/refund/approvals')).toBe('Refund of order 42 paid.');
    // A nested run's events come between its caller's toolStart and toolResult.
    const opened = done.events.indexOf('desk/refund|toolStart|' + firstToolUse(done.events));
    const closed = done.events.indexOf('desk/refund|toolResult|' + firstToolUse(done.events));
    const nested = done.events.map((e, i) => [e, i] as const).filter(([e]) => e.startsWith('desk/refund/approvals|'));
    for (const [, i] of nested) expect(i > opened && i < closed).toBe(true);
    expect((await payments(dir)).map((p) => p.split(':').slice(0, 2).join(':'))).toEqual(['42:80']);
  });
});

/** The tool use id of the refund member's call of the approvals agent. */
function firstToolUse(events: string[]): string {
  const start = events.find((e) => e.startsWith('desk/refund|toolStart|'));
  return start?.split('|')[2] ?? 'none';
}
