import { startPostgresServer, type PostgresServer } from '@skein/session-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashTrial, type Killer } from './crash-campaign.js';
import type { Shape } from './crash-shapes.js';
import type { SqlStore } from './trial-store.js';
import { twoWriterTrial } from './two-writer-campaign.js';

// The bounded form of the crash and two-writer campaigns on the SQL stores (SQLite: a file per trial
// directory; PostgreSQL: the server the tests start, a schema per trial directory), and of the server
// crash (the PostgreSQL server SIGKILLed in the middle of a step, restarted, the run resumed).
// `npm run reliability -- --campaign crash --store sqlite|postgres` runs long ones.
let server: PostgresServer;
let postgres: SqlStore;
const sqlite: SqlStore = { kind: 'sqlite' };

beforeAll(async () => {
  server = await startPostgresServer();
  postgres = { kind: 'postgres', connectionString: await server.createDatabase('reliability') };
}, 600_000);

afterAll(async () => {
  await server?.stop();
}, 120_000);

describe.each(['graph', 'swarm', 'agent'] as Shape[])('crash campaign on SQLite and PostgreSQL: %s', (shape) => {
  it.each(['sqlite', 'postgres'])(
    `%s, seed 1: killed at random moments, resumed, equals the uninterrupted run`,
    async (kind) => {
      const report = await crashTrial(shape, 1, kind === 'sqlite' ? sqlite : postgres);
      expect(report.violations, `${report.kills} kill(s); replay: ${report.replay}`).toEqual([]);
    },
    180_000,
  );
});

describe('two-writer campaigns on SQLite and PostgreSQL', () => {
  it.each([
    ['sqlite', 'agent'],
    ['sqlite', 'swarm'],
    ['postgres', 'agent'],
    ['postgres', 'swarm'],
  ] as const)(
    '%s, %s: exactly one writer goes on, the other gets SessionConflictError, only the winner is stored',
    async (kind, mode) => {
      const report = await twoWriterTrial(1, kind === 'sqlite' ? sqlite : postgres, mode);
      expect(report.violations, `${report.outcomes.join(', ')}; replay: ${report.replay}`).toEqual([]);
    },
    60_000,
  );
});

describe('the PostgreSQL server SIGKILLed in the middle of a step', () => {
  it('the run fails with an error naming the store; after a restart it resumes, nothing lost, nothing done twice', async () => {
    let killed = false;
    process.env['SKEIN_PG_RETRY'] = JSON.stringify({ attempts: 3, initialDelayMs: 50 });
    const killer: Killer = {
      store: `127.0.0.1:${server.port}`,
      killed: () => killed,
      killServer: async () => {
        killed = true;
        await server.kill();
      },
      restart: async () => {
        if (!killed) return;
        await server.restart();
        killed = false;
      },
    };
    const report = await crashTrial('graph', 2, postgres, killer);
    expect(report.violations, `${report.kills} server kill(s); replay: ${report.replay}`).toEqual([]);
    expect(report.kills).toBeGreaterThan(0);
  }, 300_000);
});
