import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refundsMade, replies, runDesk, storedTransitions, writeScript } from './desk-run.test-helpers.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-desk-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const CONVERSATION = ['I was charged twice for order 42', 'Please refund order 7', 'thanks!'];
const ANSWERS = [
  /^I reversed the duplicate charge on invoice INV-42; you are now charged 80 EUR once\./,
  /^I refunded 12 EUR for order 7;/,
  /^I can help with charges, invoices and refunds/,
];

describe.each(['graph', 'swarm', 'agent'] as const)('the desk as %s', (shape) => {
  it('routes billing and refund messages, uses the tools, answers', async () => {
    const script = await writeScript(dir, CONVERSATION);
    const run = await runDesk(['--shape', shape, '--dir', dir, '--script', script]);
    expect(run.stdout).toContain('[model] scripted models');
    const answers = replies(run.stdout);
    expect(answers).toHaveLength(3);
    answers.forEach((answer, i) => expect(answer).toMatch(ANSWERS[i] as RegExp));
    expect(await refundsMade(dir)).toEqual([{ orderId: '7', amountEur: 12 }]);
  });

  it('finishes a message after a crash mid-tool, without paying twice', async () => {
    const script = await writeScript(dir, ['Please refund order 108, 60 EUR']);
    const killed = await runDesk(['--shape', shape, '--dir', dir, '--script', script], {
      killWhen: /tool issue_refund|tool refund/,
      env: { DESK_TOOL_DELAY_MS: '300', DESK_APPROVAL_OVER_EUR: '1000' },
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(replies(killed.stdout)).toEqual([]);
    const resumed = await runDesk(['--shape', shape, '--dir', dir, '--script', script, '--resume'], { env: { DESK_APPROVAL_OVER_EUR: '1000' } });
    expect(resumed.stdout).toContain('[desk] resuming: Please refund order 108, 60 EUR');
    expect(replies(resumed.stdout)).toEqual([expect.stringMatching(/^I refunded 60 EUR for order 108;/)]);
    expect(await refundsMade(dir)).toEqual([{ orderId: '108', amountEur: 60 }]);
    if (shape !== 'agent') {
      const id = shape === 'graph' ? 'desk-graph' : 'desk-swarm';
      const kinds = (await storedTransitions(dir, `customer-1-${shape}`, id)).map((t) => t.split(':')[1]);
      expect(kinds).toContain('resume');
    }
  });

  it('stops at the refund approval, stores it, and pays once after a yes given in a later process', async () => {
    const script = await writeScript(dir, ['Please refund order 108, 60 EUR']);
    const asked = await runDesk(['--shape', shape, '--dir', dir, '--script', script]);
    expect(asked.stdout).toMatch(/\[desk\] waiting for approval \(.+#approval\); it is stored/);
    expect(replies(asked.stdout)).toEqual([]);
    expect(await refundsMade(dir)).toEqual([]);
    const approved = await runDesk(['--shape', shape, '--dir', dir, '--script', script, '--resume', '--yes']);
    expect(approved.stdout).toMatch(/\[approval\] \S*refund asks to issue_refund \{"orderId":"108","amountEur":60/);
    expect(replies(approved.stdout)).toEqual([expect.stringMatching(/^I refunded 60 EUR for order 108;/)]);
    expect(await refundsMade(dir)).toEqual([{ orderId: '108', amountEur: 60 }]);
    if (shape !== 'agent') {
      const id = shape === 'graph' ? 'desk-graph' : 'desk-swarm';
      const kinds = (await storedTransitions(dir, `customer-1-${shape}`, id)).map((t) => t.split(':')[1]);
      expect(kinds).toEqual(expect.arrayContaining(['interrupt', 'resume']));
    }
  });

  it('tells the customer when the refund is denied, and pays nothing', async () => {
    const script = await writeScript(dir, ['Please refund order 108, 60 EUR']);
    const denied = await runDesk(['--shape', shape, '--dir', dir, '--script', script, '--no']);
    expect(replies(denied.stdout)).toEqual([expect.stringMatching(/The refund was not made: The user denied issue_refund: denied by the operator/)]);
    expect(await refundsMade(dir)).toEqual([]);
  });
});
