import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replies, runDesk, writeScript } from './test-support/desk-run.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-desk-memory-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** One conversation (`--session`) of a customer (`--customer`), each message of `lines` a turn; the desk's answers. */
async function converse(
  shape: string,
  session: string,
  customer: string,
  lines: string[],
  store = 'sqlite',
): Promise<string[]> {
  const script = await writeScript(dir, lines);
  const run = await runDesk([
    '--shape',
    shape,
    '--dir',
    dir,
    '--store',
    store,
    '--session',
    session,
    '--customer',
    customer,
    '--script',
    script,
  ]);
  return replies(run.stdout);
}

describe.each(['graph', 'swarm', 'agent'] as const)(
  'the desk as %s remembers a customer across conversations',
  (shape) => {
    it('a new conversation about "my double charge" is answered about order 42 / INV-42; another customer is asked which order', async () => {
      const [first] = await converse(shape, 'ann-1', 'ann', ['I was charged twice for order 42']);
      expect(first).toMatch(/^I reversed the duplicate charge on invoice INV-42/);
      const [later] = await converse(shape, 'ann-2', 'ann', ['Did you fix my double charge?']);
      expect(later).toContain('INV-42');
      const [other] = await converse(shape, 'bob-1', 'bob', ['Did you fix my double charge?']);
      expect(other).toMatch(/Which order/);
      expect(other).not.toMatch(/42/);
    });
  },
);

it('the desk remembers on the file store too (memory beside the sessions)', async () => {
  await converse('graph', 'ann-1', 'ann', ['I was charged twice for order 42'], 'file');
  const [later] = await converse('graph', 'ann-2', 'ann', ['Did you fix my double charge?'], 'file');
  expect(later).toContain('INV-42');
});
