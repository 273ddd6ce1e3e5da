/**
 * Long campaigns: `npm run reliability -- [--campaign crash|two-writers|two-writers-swarm|provider|fuzz] [--store file|s3]
 * [--shape graph|swarm|agent] [--provider anthropic|bedrock|openai] [--case race|sequential|busy] [--seed S] [--trials N]` (`--store s3` starts a radosgw), or the seed range from the environment (`SKEIN_SEED_START`,
 * `SKEIN_TRIALS`; the flags win). Without `--campaign` all run. Prints one line per broken trial
 * with its replay command, and a summary per campaign (trials, faults injected, survived, broken).
 * Exits 1 when a trial broke.
 */
import { parseArgs } from 'node:util';
import { startRgwServer, type RgwServer } from '@skein/session-s3/testing';
import { crashTrial, type S3Store } from './crash-campaign.js';
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
  },
});
const first = Number(values.seed);
const trials = Number(values.trials);
if (!Number.isInteger(first) || !Number.isInteger(trials) || trials < 1)
  throw new Error(`--seed and --trials must be integers (got ${values.seed}, ${values.trials})`);
const range = `seeds ${first}-${first + trials - 1}`;
let broken = 0;

async function crash(shapes: Shape[], s3: S3Store | undefined): Promise<void> {
  for (const shape of shapes) {
    let kills = 0;
    let bad = 0;
    const started = performance.now();
    for (let seed = first; seed < first + trials; seed++) {
      const report = await crashTrial(shape, seed, s3);
      kills += report.kills;
      if (report.violations.length > 0) {
        bad++;
        console.log(
          `BROKEN crash ${shape} seed ${seed} (${report.kills} kills): ${report.violations.join(' | ')}\n  replay: ${report.replay}`,
        );
      }
      const done = seed - first + 1;
      if (done % 10 === 0 && done < trials)
        console.log(
          `  crash ${shape}: ${done}/${trials} trials (seeds ${first}-${seed}), ${kills} kills, ${bad} broken so far`,
        );
    }
    broken += bad;
    const secs = ((performance.now() - started) / 1000).toFixed(0);
    console.log(
      `crash ${shape} (${values.store}): ${trials} trials (${range}), ${kills} kills injected, ${trials - bad} survived, ${bad} broken, ${secs} s`,
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

async function twoWriters(s3: S3Store | undefined, mode: 'agent' | 'swarm', timing: TwoWriterCase): Promise<void> {
  const name = mode === 'swarm' ? 'two-writers-swarm' : 'two-writers';
  const label = `${name} ${timing} (${values.store})`;
  let bad = 0;
  const tally = new Map<string, number>();
  const started = performance.now();
  for (let seed = first; seed < first + trials; seed++) {
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
    const done = seed - first + 1;
    if (done % 10 === 0 && done < trials)
      console.log(`  ${label}: ${done}/${trials} trials (seeds ${first}-${seed}), ${bad} broken so far`);
  }
  broken += bad;
  const secs = ((performance.now() - started) / 1000).toFixed(0);
  console.log(
    `${label}: ${trials} trials (${range}), ${trials - bad} survived, ${bad} broken, ${secs} s; outcomes ${JSON.stringify(Object.fromEntries(tally))}`,
  );
}

const campaigns = values.campaign
  ? [values.campaign]
  : ['crash', 'two-writers', 'two-writers-swarm', 'provider', 'fuzz'];
if (values.store !== 'file' && values.store !== 's3') throw new Error(`unknown store ${values.store} (file or s3)`);
if (values.case !== undefined && !TWO_WRITER_CASES.includes(values.case as TwoWriterCase))
  throw new Error(`unknown case ${values.case} (${TWO_WRITER_CASES.join(', ')})`);
const cases = values.case ? [values.case as TwoWriterCase] : TWO_WRITER_CASES;
const rgw: RgwServer | undefined =
  values.store === 's3' && campaigns.some((c) => c !== 'provider' && c !== 'fuzz') ? await startRgwServer() : undefined;
try {
  const s3 = rgw
    ? { bucket: await rgw.createBucket('skein-reliability'), clientConfig: rgw.clientConfig() }
    : undefined;
  for (const campaign of campaigns) {
    if (campaign === 'crash') await crash(values.shape ? [values.shape as Shape] : ['graph', 'swarm', 'agent'], s3);
    else if (campaign === 'two-writers' || campaign === 'two-writers-swarm')
      for (const timing of cases) await twoWriters(s3, campaign === 'two-writers' ? 'agent' : 'swarm', timing);
    else if (campaign === 'provider')
      for (const name of values.provider ? [values.provider] : Object.keys(PROVIDER_CAMPAIGNS)) await provider(name);
    else if (campaign === 'fuzz') await fuzz();
    else throw new Error(`unknown campaign ${campaign} (crash, two-writers, two-writers-swarm, provider or fuzz)`);
  }
} finally {
  await rgw?.stop();
}
process.exit(broken > 0 ? 1 : 0);
