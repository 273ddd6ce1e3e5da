/**
 * What `fallback` and `route` cost. (1) On a turn that needs no fallback: an agent turn on the bare
 * model (the floor) next to the same turn through `fallback([model, backup])` and
 * `route(select, { model })`, in the same run, alternating, both on the real AnthropicModel against
 * the loopback server and on an in-memory scripted model (where nothing hides the overhead).
 * (2) The time to switch after a 529: the loopback round trip of the 529 alone plus the backup's
 * answer alone (the floor) against the whole fallback call; the difference is what switching costs.
 */
import { Agent, fallback, route, type Model } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { AnthropicModel } from '@skein/model-anthropic';
import { AnthropicTestServer, answerEvents, errorBody } from '@skein/model-anthropic/testing';
import { table, usPerOp } from './measure.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 25);
const TURNS_PER_ROUND = 20;

const answer = { events: answerEvents({ blocks: [{ text: ['Your order ', 'shipped ', 'today.'] }], pings: false }) };
const okServer = await AnthropicTestServer.start({ record: false, loop: true });
okServer.enqueue(answer);
const overloadedServer = await AnthropicTestServer.start({ record: false, loop: true });
overloadedServer.enqueue({ status: 529, body: errorBody('overloaded_error', 'Overloaded') });
const backupServer = await AnthropicTestServer.start({ record: false, loop: true });
backupServer.enqueue(answer);

const anthropic = (url: string, modelId: string): AnthropicModel =>
  new AnthropicModel({ modelId, clientOptions: { apiKey: 'dummy', baseURL: url } });
const primary = anthropic(okServer.url, 'primary');
const backup = anthropic(backupServer.url, 'backup');
const scripted = (): ScriptedModel => new ScriptedModel(['Your order shipped today.'], { loop: true, record: false });
const memory = scripted();

const turn = (model: Model): (() => Promise<unknown>) => {
  const agent = new Agent({ model, retryStrategy: null });
  return async () => {
    agent.messages = [];
    return agent.invoke('Where is my order?');
  };
};

const variants: [string, () => Promise<unknown>][] = [
  ['wire: bare AnthropicModel (floor)', turn(primary)],
  ['wire: fallback([model, backup])', turn(fallback([primary, backup]))],
  ['wire: route(() => "a", { a: model })', turn(route(() => 'a', { a: primary }))],
  ['memory: bare ScriptedModel (floor)', turn(memory)],
  ['memory: fallback([model, backup])', turn(fallback([memory, scripted()]))],
  ['memory: route(() => "a", { a: model })', turn(route(() => 'a', { a: memory }))],
];

// (2) The switch: the 529 alone, the backup alone, and the chain that goes from one to the other.
const overloaded = anthropic(overloadedServer.url, 'overloaded');
const request = { messages: [{ role: 'user' as const, content: [{ text: 'Where is my order?' }] }] };
const drain = async (model: Model): Promise<void> => {
  for await (const _ of model.stream(request)) void _;
};
const chain = fallback([overloaded, backup], { circuitBreaker: false });
const switching: [string, () => Promise<unknown>][] = [
  ['529 round trip alone', () => drain(overloaded).catch(() => undefined)],
  ['backup answer alone', () => drain(backup)],
  ['fallback: 529, then the backup answers', () => drain(chain)],
];

const all = [...variants, ...switching];
for (let i = 0; i < 30; i++) for (const [, fn] of all) await fn(); // warm up: JIT, keep-alive sockets
const best = new Map<string, number>();
for (let r = 0; r < ROUNDS; r++)
  for (const [name, fn] of all)
    best.set(name, Math.min(best.get(name) ?? Infinity, await usPerOp(fn, TURNS_PER_ROUND, 1)));
await Promise.all([okServer.close(), overloadedServer.close(), backupServer.close()]);

const us = (name: string): number => best.get(name) ?? Number.NaN;
console.log(`agent turns with no fallback needed: best of ${ROUNDS} rounds of ${TURNS_PER_ROUND}, alternating`);
const rows: (string | number)[][] = [['variant', 'µs/turn', 'x floor', '+µs']];
for (const [name] of variants) {
  const floor = us(
    name.startsWith('wire') ? 'wire: bare AnthropicModel (floor)' : 'memory: bare ScriptedModel (floor)',
  );
  rows.push([name, us(name), us(name) / floor, us(name) - floor]);
}
table(rows);
const switchUs = us('fallback: 529, then the backup answers') - us('529 round trip alone') - us('backup answer alone');
console.log('\ntime to switch after a 529 (AnthropicModel to AnthropicModel, loopback):');
table([
  ['path', 'µs/call'],
  ...switching.map(([name]) => [name, us(name)]),
  ['switch cost = chain - 529 - backup', switchUs],
]);
