import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PostgresSessionManager, PostgresSessionRepository } from './index.js';

// Nothing here connects: a pool opens connections at its first query.
const connectionString = 'postgres://desk@127.0.0.1:9/desk';

describe('the pool of a connection string is shared', () => {
  it('managers built per request on one connection string share one pool, also after one closed', async () => {
    const a = new PostgresSessionManager({ sessionId: 'c1', connectionString });
    const b = new PostgresSessionManager({ sessionId: 'c2', connectionString });
    const pool = await a.repository.pool();
    expect(await b.repository.pool()).toBe(pool);
    await a.close();
    await b.close();
    // The next request's manager, a moment later: still the same pool.
    const c = new PostgresSessionManager({ sessionId: 'c3', connectionString });
    expect(await c.repository.pool()).toBe(pool);
    await c.close();
    const other = new PostgresSessionRepository({ connectionString, poolSize: 3 });
    expect(await other.pool()).not.toBe(pool);
    await other.close();
  });

  it('warns once when pools of your own come one per request', async () => {
    const warnings: Error[] = [];
    const listen = (w: Error): void => void warnings.push(w);
    process.on('warning', listen);
    try {
      const pools = Array.from({ length: 7 }, () => new pg.Pool({ connectionString }));
      for (const [i, pool] of pools.entries()) new PostgresSessionManager({ sessionId: `r${i}`, pool });
      await new Promise((resolve) => setImmediate(resolve));
      const ours = warnings.filter((w) => (w as { code?: string }).code === 'SKEIN_PG_POOL_PER_REQUEST');
      expect(ours).toHaveLength(1);
      expect(ours[0]?.message).toMatch(
        /5 pg pools for postgres:\/\/desk@127\.0\.0\.1:9\/desk .*pass it to every manager/,
      );
      await Promise.all(pools.map((p) => p.end()));
    } finally {
      process.off('warning', listen);
    }
  });
});
