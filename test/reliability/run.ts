/**
 * Long crash campaigns: `npm run reliability -- [--shape graph|swarm|agent] [--seed S] [--trials N]`.
 * Runs N trials per shape from seed S on, prints one line per broken trial with its replay command,
 * and a summary per shape (trials, kills injected, survived, broken). Exits 1 when a trial broke.
 */
import { parseArgs } from 'node:util';
import { crashTrial } from './crash-campaign.js';
import type { Shape } from './crash-shapes.js';

const { values } = parseArgs({ options: { shape: { type: 'string' }, seed: { type: 'string', default: '1' }, trials: { type: 'string', default: '200' } } });
const shapes: Shape[] = values.shape ? [values.shape as Shape] : ['graph', 'swarm', 'agent'];
const first = Number(values.seed);
const trials = Number(values.trials);
let broken = 0;
for (const shape of shapes) {
  let kills = 0;
  let bad = 0;
  const started = performance.now();
  for (let seed = first; seed < first + trials; seed++) {
    const report = await crashTrial(shape, seed);
    kills += report.kills;
    if (report.violations.length > 0) {
      bad++;
      console.log(`BROKEN ${shape} seed ${seed} (${report.kills} kills): ${report.violations.join(' | ')}\n  replay: ${report.replay}`);
    }
  }
  broken += bad;
  const secs = ((performance.now() - started) / 1000).toFixed(0);
  console.log(`${shape}: ${trials} trials (seeds ${first}-${first + trials - 1}), ${kills} kills injected, ${trials - bad} survived, ${bad} broken, ${secs} s`);
}
process.exit(broken > 0 ? 1 : 0);
