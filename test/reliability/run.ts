/**
 * Long campaigns: `npm run reliability -- [--campaign crash|server-crash|two-writers|two-writers-swarm|provider|fuzz] [--store file|s3|sqlite|postgres]
 * [--shape graph|swarm|agent] [--provider anthropic|bedrock|openai] [--case race|sequential|busy|overlap] [--seed S] [--trials N]` (`--store s3` starts a radosgw,
 * `--store postgres` a PostgreSQL server; `server-crash` SIGKILLs that server instead of the worker), or the seed range from the environment (`SKEIN_SEED_START`,
 * `SKEIN_TRIALS`; the flags win). Without `--campaign` all run. Prints one line per broken trial
 * with its replay command, and a summary per campaign (trials, faults injected, survived, broken).
 * Exits 1 when a trial broke.
 */
import { parseArgs } from 'node:util';
import { startRgwServer, type RgwServer } from '@skein/session-s3/testing';
import { startPostgresServer, type PostgresServer } from '@skein/session-postgres/testing';
import { crashTrial, type Killer } from './crash-campaign.js';
import type { TrialStore } from './trial-store.js';
import type { Shape } from './crash-shapes.js';
import { FUZZ_CATEGORIES, fuzzTrial } from './fuzz-campaign.js';
import { PROVIDER_CAMPAIGNS } from './provider-campaign.js';
import { TWO_WRITER_CASES, twoWriterTrial, type TwoWriterCase } from './two-writer-campaign.js';

const { values } = parseArgs({
  options: {
    campaign: { type: 'string' },
    shape: { type: 'string' },
    store: { type: 'string', default: 'file' },
    provider: { type: 'string' },
    case: { type: 'string' },
    seed: { type: 'string', default: process.env['SKEIN_SEED_START'] ?? '1' },
    trials: { type: 'string', default: process.env['SKEIN_TRIALS'] ?? '200' },
    parallel: { type: 'string', default: '1' },
  },
});
const parallel = Math.max(1, Number(values.parallel) || 1);

/** Runs `trial` for every seed, `parallel` at a time (in seed order as they finish). */
async function eachSeed(trial: (seed: number) => Promise<void>, lanes = parallel): Promise<void> {
  let next = first;
  const lane = async (): Promise<void> => {
    while (next < first + trials) await trial(next++);
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}
const first = Number(values.seed);
const trials = Number(values.trials);
if (!Number.isInteger(first) || !Number.isInteger(trials) || trials < 1)
  throw new Error(`--seed and --trials must be integers (got ${values.seed}, ${values.trials})`);
const range = `seeds ${first}-${first + trials - 1}`;
let broken = 0;

async function crash(shapes: Shape[], s3: TrialStore | undefined, killer?: Killer): Promise<void> {
  const name = killer ? 'server-crash' : 'crash';
  for (const shape of shapes) {
    let kills = 0;
    let stops = 0;
    let bad = 0;
    const started = performance.now();
    let done = 0;
    await eachSeed(
      async (seed) => {
        const report = await crashTrial(shape, seed, s3, killer);
        kills += report.kills;
        stops += report.budgetStops;
        if (report.violations.length > 0) {
          bad++;
          console.log(
            `BROKEN ${name} ${shape} seed ${seed} (${report.kills} kills, ${report.budgetStops} budget stops): ${report.violations.join(' | ')}\n  replay: ${report.replay}`,
          );
        }
        done++;
        if (done % 10 === 0 && done < trials)
          console.log(
            `  ${name} ${shape}: ${done}/${trials} trials, ${kills} kills, ${stops} budget stops, ${bad} broken so far`,
          );
      },
      killer ? 1 : parallel,
    ); // the server killer stops every trial's server: one at a time
    broken += bad;
    const secs = ((performance.now() - started) / 1000).toFixed(0);
    console.log(
      `${name} ${shape} (${values.store}): ${trials} trials (${range}), ${kills} kills and ${stops} budget stops injected, ${trials - bad} survived, ${bad} broken, ${secs} s`,
    );
  }
}

async function provider(name: string): Promise<void> {
  const campaign = PROVIDER_CAMPAIGNS[name];
  if (!campaign) throw new Error(`unknown provider ${name} (${Object.keys(PROVIDER_CAMPAIGNS).join(', ')})`);
  const perKind = new Map(campaign.kinds.map((k) => [k, { trials: 0, completed: 0, failed: 0, broken: 0 }]));
  const errors = new Map<string, number>();
  let faults = 0;
  let bad = 0;
  const started = performance.now();
  for (let seed = first; seed < first + trials; seed++) {
    const report = await campaign.trial(seed);
    faults += report.faults.length;
    if (report.error) errors.set(report.error.split(':')[0]!, (errors.get(report.error.split(':')[0]!) ?? 0) + 1);
    for (const kind of new Set(report.faults)) {
      const row = perKind.get(kind)!;
      row.trials++;
      row[report.outcome]++;
      if (report.violations.length > 0) row.broken++;
    }
    if (report.violations.length > 0) {
      bad++;
      console.log(
        `BROKEN provider ${name} seed ${seed} (faults: ${report.faults.join(', ')}; ${report.outcome}): ${report.violations.join(' | ')}\n  replay: ${report.replay}`,
      );
    }
  }
  broken += bad;
  const secs = ((performance.now() - started) / 1000).toFixed(0);
  console.log(
    `provider ${name}: ${trials} trials (${range}), ${faults} faults injected, ${trials - bad} survived, ${bad} broken, ${secs} s`,
  );
  for (const [kind, row] of perKind)
    console.log(
      `  ${kind.padEnd(36)} in ${row.trials} trials: ${row.completed} completed, ${row.failed} failed, ${row.broken} broken`,
    );
  console.log(`  errors of failed trials: ${JSON.stringify(Object.fromEntries(errors))}`);
}

async function fuzz(): Promise<void> {
  const perCategory = new Map<string, { cases: number; rejected: number; accepted: number; broken: number }>(
    FUZZ_CATEGORIES.map((c) => [c, { cases: 0, rejected: 0, accepted: 0, broken: 0 }]),
  );
  let bad = 0;
  const started = performance.now();
  for (let seed = first; seed < first + trials; seed++) {
    const report = await fuzzTrial(seed);
    const broke = report.cases.filter((c) => c.violations.length > 0);
    for (const c of report.cases) {
      const row = perCategory.get(c.category)!;
      row.cases++;
      row[c.outcome]++;
      if (c.violations.length > 0) row.broken++;
    }
    if (broke.length > 0) {
      bad++;
      for (const c of broke)
        console.log(
          `BROKEN fuzz seed ${seed} ${c.category} "${c.name}" (${c.outcome}): ${c.violations.join(' | ')}\n  replay: ${report.replay}`,
        );
    }
  }
  broken += bad;
  const secs = ((performance.now() - started) / 1000).toFixed(0);
  const cases = [...perCategory.values()].reduce((n, r) => n + r.cases, 0);
  console.log(
    `fuzz: ${trials} trials (${range}), ${cases} cases, ${trials - bad} trials clean, ${bad} broken, ${secs} s`,
  );
  for (const [category, row] of perCategory)
    console.log(
      `  ${category.padEnd(14)} ${row.cases} cases: ${row.rejected} rejected (a named skein error, or an error tool result for tool inputs), ${row.accepted} accepted, ${row.broken} broken`,
    );
}

async function twoWriters(s3: TrialStore | undefined, mode: 'agent' | 'swarm', timing: TwoWriterCase): Promise<void> {
  const name = mode === 'swarm' ? 'two-writers-swarm' : 'two-writers';
  const label = `${name} ${timing} (${values.store})`;
  let bad = 0;
  const tally = new Map<string, number>();
  let done = 0;
  const started = performance.now();
  await eachSeed(async (seed) => {
    const report = await twoWriterTrial(seed, s3, mode, timing);
    const shape = report.outcomes
      .map((o) => o.replace(/^[AB] /, ''))
      .sort()
      .join(' / ');
    tally.set(shape, (tally.get(shape) ?? 0) + 1);
    if (report.violations.length > 0) {
      bad++;
      console.log(
        `BROKEN ${name} ${timing} seed ${seed} (${report.outcomes.join(', ')}): ${report.violations.join(' | ')}\n  replay: ${report.replay}`,
      );
    }
    done++;
    if (done % 10 === 0 && done < trials) console.log(`  ${label}: ${done}/${trials} trials, ${bad} broken so far`);
  });
  broken += bad;
  const secs = ((performance.now() - started) / 1000).toFixed(0);
  console.log(
    `${label}: ${trials} trials (${range}), ${trials - bad} survived, ${bad} broken, ${secs} s; outcomes ${JSON.stringify(Object.fromEntries(tally))}`,
  );
}

/** Kills the PostgreSQL server in the middle of a step (the worker fails naming the store), and restarts it. */
function serverKiller(server: PostgresServer): Killer {
  let killed = false;
  process.env['SKEIN_PG_RETRY'] = JSON.stringify({ attempts: 3, initialDelayMs: 50 });
  return {
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
}

const campaigns = values.campaign
  ? [values.campaign]
  : ['crash', 'two-writers', 'two-writers-swarm', 'provider', 'fuzz'];
if (!['file', 's3', 'sqlite', 'postgres'].includes(values.store))
  throw new Error(`unknown store ${values.store} (file, s3, sqlite or postgres)`);
if (values.case !== undefined && !TWO_WRITER_CASES.includes(values.case as TwoWriterCase))
  throw new Error(`unknown case ${values.case} (${TWO_WRITER_CASES.join(', ')})`);
const cases = values.case ? [values.case as TwoWriterCase] : TWO_WRITER_CASES;
const needsStore = campaigns.some((c) => c !== 'provider' && c !== 'fuzz');
const rgw: RgwServer | undefined = values.store === 's3' && needsStore ? await startRgwServer() : undefined;
const postgres: PostgresServer | undefined =
  values.store === 'postgres' && needsStore ? await startPostgresServer() : undefined;
try {
  const s3: TrialStore | undefined = rgw
    ? { bucket: await rgw.createBucket('skein-reliability'), clientConfig: rgw.clientConfig() }
    : postgres
      ? { kind: 'postgres', connectionString: await postgres.createDatabase('reliability') }
      : values.store === 'sqlite'
        ? { kind: 'sqlite' }
        : undefined;
  const shapes: Shape[] = values.shape ? [values.shape as Shape] : ['graph', 'swarm', 'agent'];
  for (const campaign of campaigns) {
    if (campaign === 'crash') await crash(shapes, s3);
    else if (campaign === 'server-crash') {
      if (!postgres) throw new Error('server-crash needs --store postgres');
      await crash(shapes, s3, serverKiller(postgres));
    } else if (campaign === 'two-writers' || campaign === 'two-writers-swarm')
      for (const timing of cases) await twoWriters(s3, campaign === 'two-writers' ? 'agent' : 'swarm', timing);
    else if (campaign === 'provider')
      for (const name of values.provider ? [values.provider] : Object.keys(PROVIDER_CAMPAIGNS)) await provider(name);
    else if (campaign === 'fuzz') await fuzz();
    else
      throw new Error(
        `unknown campaign ${campaign} (crash, server-crash, two-writers, two-writers-swarm, provider or fuzz)`,
      );
  }
} finally {
  await rgw?.stop();
  await postgres?.stop();
}
process.exit(broken > 0 ? 1 : 0);
