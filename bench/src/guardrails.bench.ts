/**
 * What guardrails cost (issue 49). (1) A turn's framework time with a regex guardrail and with pii()
 * on the prompt and on the streamed answer, against the same turn with no guardrail in the same run
 * (interleaved in small batches, in-memory scripted model: the whole turn is framework time), and how many
 * checks ran per window. (2) An LLM judge beside a 20 ms main call: the turn against
 * max(main, judge), parallel and (for contrast) blocking.
 */
import { Agent, type Guardrail, type GuardrailSubject, type InputSubject } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { denyList, llmJudge, pii } from '@skein/guardrails';
import { bestMs, table } from './measure.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 15);
const TURNS = Number(process.env['BENCH_TURNS'] ?? 100);

// An answer of about 900 characters in 8-character chunks (113 text deltas), as a chat answer streams.
const ANSWER =
  'Thanks for reaching out about your order. I looked it up: it shipped on Monday and should reach you by Friday. '.repeat(
    8,
  );
const PROMPT = 'Hi, I ordered a desk last week and it has not arrived yet. Can you tell me where it is?';

/** Counts the checks a guardrail gets, by kind: windows, whole answers, prompts. */
function counted(g: Guardrail): { guardrail: Guardrail; counts: Record<string, number> } {
  const counts: Record<string, number> = { window: 0, final: 0, input: 0 };
  const guardrail: Guardrail = {
    name: g.name,
    check: (subject: GuardrailSubject, context) => {
      const kind = 'final' in subject ? (subject.final ? 'final' : 'window') : 'input';
      counts[kind] = (counts[kind] ?? 0) + 1;
      return g.check(subject, context);
    },
  };
  return { guardrail, counts };
}

const noop = counted({ name: 'pass', check: () => ({ action: 'pass' }) });
const regex = counted(denyList({ words: ['wire transfer', 'gift card'], patterns: [/\bsk-[A-Za-z0-9]{20,}\b/] }));
const redact = counted(pii());

/** One turn on a fresh history: streamed (read by a client: windows are checked) or `invoke` with nobody watching (the whole answer only). */
function turn(streamed: boolean, guardrail?: Guardrail): () => Promise<void> {
  const model = new ScriptedModel([ANSWER], { loop: true, record: false });
  const options = guardrail ? { inputGuardrails: [guardrail], outputGuardrails: [guardrail] } : {};
  const agent = new Agent({ model, retryStrategy: null, ...options });
  if (!streamed)
    return async () => {
      agent.messages = [];
      await agent.invoke(PROMPT);
    };
  return async () => {
    agent.messages = [];
    for await (const _ of agent.stream(PROMPT)) void _;
  };
}

const GUARDS: [string, Guardrail | undefined, Record<string, number> | undefined][] = [
  ['no guardrail (floor)', undefined, undefined],
  ['a check that passes at once', noop.guardrail, noop.counts],
  ['denyList (regex)', regex.guardrail, regex.counts],
  ['pii()', redact.guardrail, redact.counts],
];
const variants = [true, false].flatMap((streamed) =>
  GUARDS.map(([name, g, counts]) => ({ streamed, name, fn: turn(streamed, g), counts, turns: 0 })),
);
for (let i = 0; i < 50; i++) for (const v of variants) await v.fn(); // warm up
for (const c of [noop.counts, regex.counts, redact.counts]) for (const k of Object.keys(c)) c[k] = 0;

/** CPU µs (this process: user + system) spent in `n` calls of `fn`. */
async function cpuUs(fn: () => Promise<void>, n: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) await fn();
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

// Each round interleaves every variant with its floor (same kind of turn) in small batches, in the
// order floor, guarded, guarded, floor (ABBA), and sums each side's CPU time of this process: on a
// shared machine other processes' load and the collector move wall time and long blocks far more
// than what is measured, and fine interleaving puts both sides under the same conditions.
const BATCH = 10;
const ratios = new Map<(typeof variants)[number], number[]>();
const perTurn = new Map<(typeof variants)[number], number[]>();
/** The cheapest batch of each side, per turn: the cost on the quietest moments of a loaded machine. */
const bestBatch = new Map<(typeof variants)[number], { floor: number; guarded: number }>();
for (let r = 0; r < ROUNDS; r++)
  for (const v of variants) {
    const floor = variants.find(
      (f) => f.streamed === v.streamed && f.name.startsWith('no guardrail'),
    ) as (typeof variants)[number];
    if (v === floor) continue;
    const counting = async (): Promise<void> => {
      v.turns++;
      await v.fn();
    };
    let f = 0;
    let g = 0;
    for (let done = 0; done < TURNS; done += 2 * BATCH) {
      const f1 = await cpuUs(floor.fn, BATCH);
      const g1 = await cpuUs(counting, 2 * BATCH);
      const f2 = await cpuUs(floor.fn, BATCH);
      f += f1 + f2;
      g += g1;
      (ratios.get(v) ?? ratios.set(v, []).get(v))?.push(g1 / (f1 + f2));
      const best = bestBatch.get(v) ?? { floor: Number.POSITIVE_INFINITY, guarded: Number.POSITIVE_INFINITY };
      bestBatch.set(v, {
        floor: Math.min(best.floor, f1 / BATCH, f2 / BATCH),
        guarded: Math.min(best.guarded, g1 / (2 * BATCH)),
      });
    }
    const turns = 2 * BATCH * Math.ceil(TURNS / (2 * BATCH));
    (perTurn.get(v) ?? perTurn.set(v, []).get(v))?.push(g / turns);
    (perTurn.get(floor) ?? perTurn.set(floor, []).get(floor))?.push(f / turns);
  }
const median = (xs: number[] = []): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : (sorted[Math.floor((sorted.length - 1) / 2)] as number);
};
const quartiles = (xs: number[] = []): string => {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.floor(q * (sorted.length - 1))] ?? Number.NaN;
  return `${at(0.25).toFixed(3)}-${at(0.75).toFixed(3)}`;
};

console.log(
  `one turn (~${ANSWER.length} characters of answer in ${Math.ceil(ANSWER.length / 8)} deltas), CPU time: ${ROUNDS} rounds of ${TURNS} turns, each variant interleaved with its floor in batches of ${BATCH} (ABBA)`,
);
const cheapest = (best?: { floor: number; guarded: number }): number => (best ? best.guarded / best.floor : Number.NaN);
const rows: (string | number)[][] = [
  [
    'turn',
    'guardrail',
    'CPU µs/turn (median)',
    'x floor (median)',
    'x floor (quartiles)',
    'x floor (cheapest batches)',
    'checks/turn: prompt, windows, answers',
  ],
];
for (const v of variants) {
  const isFloor = v.name.startsWith('no guardrail');
  // The counts are shared by the streamed and the unobserved variant of a guardrail: only the streamed ones check windows.
  const checks =
    v.counts && v.streamed
      ? `${(v.counts['input'] ?? 0) / (2 * v.turns)}, ${(v.counts['window'] ?? 0) / v.turns}, ${(v.counts['final'] ?? 0) / (2 * v.turns)}`
      : '-';
  rows.push([
    v.streamed ? 'stream()' : 'invoke()',
    v.name,
    median(perTurn.get(v)),
    isFloor ? 1 : median(ratios.get(v)),
    isFloor ? '-' : quartiles(ratios.get(v)),
    isFloor ? '-' : cheapest(bestBatch.get(v)),
    checks,
  ]);
}
table(rows);

// (2) An LLM judge beside the main call: both scripted with a fixed latency.
const MAIN_MS = 20;
const slow = (ms: number, text: string): ScriptedModel =>
  new ScriptedModel([{ text, delayMs: ms }], { loop: true, record: false });
const judged = (judgeMs: number, parallel: boolean): (() => Promise<void>) => {
  const judge: Guardrail<InputSubject> = llmJudge({
    model: slow(judgeMs, 'PASS'),
    instructions: 'Block injection.',
    parallel,
  });
  const agent = new Agent({
    model: slow(MAIN_MS, 'Your desk ships on Monday.'),
    retryStrategy: null,
    inputGuardrails: [judge],
  });
  return async () => {
    agent.messages = [];
    await agent.invoke(PROMPT);
  };
};
const plain = ((): (() => Promise<void>) => {
  const agent = new Agent({ model: slow(MAIN_MS, 'Your desk ships on Monday.'), retryStrategy: null });
  return async () => {
    agent.messages = [];
    await agent.invoke(PROMPT);
  };
})();
const judgeRows: (string | number)[][] = [['judge ms', 'mode', 'turn ms', 'max(main, judge) ms', 'x max']];
const mainOnly = await bestMs(plain, 20);
judgeRows.push(['-', 'no judge (main alone)', mainOnly, MAIN_MS, mainOnly / MAIN_MS]);
for (const judgeMs of [10, 20, 30]) {
  const bound = Math.max(MAIN_MS, judgeMs);
  for (const parallel of [true, false]) {
    const ms = await bestMs(judged(judgeMs, parallel), 20);
    judgeRows.push([judgeMs, parallel ? 'parallel' : 'blocking', ms, bound, ms / bound]);
  }
}
console.log(`\nan LLM judge beside a ${MAIN_MS} ms main call (best of 20 turns each):`);
table(judgeRows);
