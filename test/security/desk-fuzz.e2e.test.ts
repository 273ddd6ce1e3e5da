/**
 * A seeded fuzzer over every route of `npm run desk:web` (its own process, a file store), as a
 * hostile customer: hundreds of requests, each wrong in at least one way (`fuzz-requests.ts`).
 * Checked for every request: no 5xx, an answer (or, for a huge upload, a closed connection) within
 * 5 s, and a refused request stores nothing (the store's files hashed before and after). Checked
 * after the run: the victims' conversations read the same, the waiting refund is still unpaid, and
 * no answer to the attacker holds a word of theirs. `SKEIN_SECURITY_FUZZ_SEED` / `_COUNT` change the run.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refundsMade } from '../../examples/support-desk/src/test-support/desk-run.js';
import {
  startDeskWeb,
  type DeskWebProcess,
} from '../../examples/support-desk/src/web/test-support/desk-web-process.js';
import { call, jsonOf, signIn, supervisorCookie } from './desk-client.js';
import { fuzzedRequest, mulberry32, type Targets } from './fuzz-requests.js';
import { raw } from './raw-http.js';

const SEED = Number(process.env['SKEIN_SECURITY_FUZZ_SEED'] ?? 20261128);
const COUNT = Number(process.env['SKEIN_SECURITY_FUZZ_COUNT'] ?? 400);
const SECRET = 'alice-secret-7f3a';

let dir = '';
let desk: DeskWebProcess;

async function snapshot(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (d: string): Promise<void> => {
    for (const name of await readdir(d)) {
      const path = join(d, name);
      if ((await stat(path)).isDirectory()) await walk(path);
      else
        out.set(
          relative(root, path),
          createHash('sha256')
            .update(await readFile(path))
            .digest('hex'),
        );
    }
  };
  await walk(root);
  return out;
}

function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-security-fuzz-'));
  desk = await startDeskWeb(['--dir', dir, '--store', 'file']);
}, 60_000);

afterAll(async () => {
  await desk?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the web desk under a seeded hostile client', () => {
  it(`${COUNT} requests (seed ${SEED}): no 5xx, every one let go of within 5 s, refusals store nothing, tenants stay apart`, async () => {
    const alice = await signIn(desk.port, 'alice');
    const bob = await signIn(desk.port, 'tenant-bob');
    const mallory = await signIn(desk.port, 'mallory');
    await call(desk.port, 'POST', '/v1/graphs/desk/conversations/a1/messages', alice, {
      message: `My note ${SECRET}: what are your opening hours?`,
    });
    const asked = jsonOf<{ interrupts: { id: string }[] }>(
      await call(desk.port, 'POST', '/v1/graphs/desk/conversations/b1/messages', bob, {
        message: 'Please refund order 108, 60 EUR',
      }),
    );
    const approvalId = asked.interrupts[0]?.id ?? '';
    const read = async () => [
      (await call(desk.port, 'GET', '/v1/graphs/desk/conversations/a1', alice))?.body,
      (await call(desk.port, 'GET', '/v1/graphs/desk/conversations/b1', bob))?.body,
      (await call(desk.port, 'GET', '/v1/graphs/desk/conversations', bob))?.body,
    ];
    const victimsBefore = await read();
    const targets: Targets = {
      attacker: mallory,
      cookies: [
        '',
        'desk-customer=alice',
        `desk-customer=tenant-bob.${'A'.repeat(43)}`,
        'desk-supervisor=guess',
        supervisorCookie(desk.supervisorUrl),
      ],
      victimIds: ['a1', 'b1', 'skein-index-0000000000000000000000000000000000000000'],
      approvalId,
    };

    const random = mulberry32(SEED);
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let slowest = 0;
    let before = await snapshot(dir);
    for (let i = 0; i < COUNT; i++) {
      const request = fuzzedRequest(random, targets);
      const response = await raw(desk.port, request, 5_000);
      const label = `#${i} ${request.label}`;
      if (!response) {
        failures.push(`${label}: no answer within 5 s`);
        continue;
      }
      slowest = Math.max(slowest, response.ms);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status >= 500) failures.push(`${label}: ${response.status} ${response.body.slice(0, 200)}`);
      if (response.status === 0 && !request.huge) failures.push(`${label}: connection closed without an answer`);
      if (response.body.includes(SECRET) || response.body.includes('order 108'))
        if (
          request.headers?.['cookie'] !== supervisorCookie(desk.supervisorUrl) ||
          !request.headers?.['x-desk-customer']
        )
          failures.push(`${label}: answered with a victim's words`);
      const after = await snapshot(dir);
      const ok = response.status >= 200 && response.status < 400;
      if (!ok) {
        const diff = changed(before, after);
        if (diff.length > 0) failures.push(`${label}: refused (${response.status}) but changed ${diff.join(', ')}`);
      }
      before = after;
    }
    expect(failures).toEqual([]);
    expect(await read()).toEqual(victimsBefore);
    expect(await refundsMade(dir)).toEqual([]);
    const pending = jsonOf<{ interrupts: { id: string }[] }>(
      await call(desk.port, 'GET', '/v1/graphs/desk/conversations/b1/pending', bob),
    );
    expect(pending.interrupts.map((i) => i.id)).toEqual([approvalId]);
    const summary = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
    console.log(`[security fuzz] seed ${SEED}, ${COUNT} requests: ${summary.join(', ')}; slowest ${slowest} ms`);
  }, 600_000);
});
