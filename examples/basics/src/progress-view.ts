/**
 * A live progress view of the support graph (examples/support-desk), built only from the events its
 * listeners receive (`graph.on(...)`): which node runs, its tool calls, tokens streamed so far, how
 * each node ended and where control went. On a terminal the board redraws in place; piped, it prints
 * one line per change. Runs on scripted models unless a provider's credentials are set.
 * Run: npm run progress --workspace examples -- "Hi, I was charged twice for order 42"
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentStreamEvent, MultiAgentStreamEvent } from '@skein/core';
import { pickDeskModels } from '../../support-desk/src/desk-models.js';
import { DeskStore } from '../../support-desk/src/desk-store.js';
import { buildDeskGraph } from '../../support-desk/src/shapes/graph-desk.js';

interface Row {
  state: 'waiting' | 'running' | 'completed' | 'failed' | 'interrupted';
  detail: string;
  chars: number;
  startedAt: number;
  ms: number;
}

const live = process.stdout.isTTY === true;
const started = performance.now();
const clock = (): string => `+${((performance.now() - started) / 1000).toFixed(2)}s`;
const icon: Record<Row['state'], string> = {
  waiting: '·',
  running: '▶',
  completed: '✓',
  failed: '✗',
  interrupted: '⏸',
};

const dir = await mkdtemp(join(tmpdir(), 'skein-progress-example-'));
try {
  const models = await pickDeskModels();
  const graph = buildDeskGraph({ store: new DeskStore(dir), modelFor: models.modelFor, sessionManager: undefined });
  const rows = new Map<string, Row>(
    [...graph.nodes.keys()].map((id) => [id, { state: 'waiting', detail: '', chars: 0, startedAt: 0, ms: 0 }]),
  );
  const log: string[] = [];
  let drawn = 0;

  const draw = (line?: string): void => {
    if (line) log.push(`${clock()} ${line}`);
    if (!live) {
      if (line) console.log(log[log.length - 1]);
      return;
    }
    const board = [...rows].map(([id, r]) => {
      const time = r.state === 'running' ? performance.now() - r.startedAt : r.ms;
      const timing = r.state === 'waiting' ? '' : `${(time / 1000).toFixed(2)}s`;
      return ` ${icon[r.state]} ${id.padEnd(9)} ${timing.padStart(6)}  ${String(r.chars).padStart(5)} chars  ${r.detail}`.slice(
        0,
        process.stdout.columns || 100,
      );
    });
    const lines = [...board, '', ...log.slice(-6)];
    if (drawn > 0) process.stdout.write(`\x1b[${drawn}A`);
    process.stdout.write(lines.map((l) => `\x1b[2K${l}\n`).join(''));
    drawn = lines.length;
  };

  const row = (id: string): Row =>
    rows.get(id) ?? (rows.set(id, { state: 'waiting', detail: '', chars: 0, startedAt: 0, ms: 0 }).get(id) as Row);
  graph.on('nodeStart', (e) => {
    Object.assign(row(e.nodeId), { state: 'running', startedAt: performance.now(), detail: 'thinking' });
    draw(`${e.nodeId} started`);
  });
  graph.on('nodeStream', (e) => {
    const r = row(e.nodeId);
    const inner = e.event as AgentStreamEvent | MultiAgentStreamEvent;
    if (inner.type === 'textDelta') {
      r.chars += inner.data.length;
      r.detail = 'writing';
      draw();
    } else if (inner.type === 'toolStart') {
      r.detail = `tool ${inner.toolUse.name}`;
      draw(`${e.nodeId} calls ${inner.toolUse.name}`);
    } else if (inner.type === 'modelRetry') {
      r.detail = `model busy, retry in ${inner.delayMs} ms`;
      draw(`${e.nodeId}: model retry ${inner.attempt}`);
    }
  });
  graph.on('nodeStop', (e) => {
    const r = row(e.nodeId);
    Object.assign(r, {
      state: e.result.status === 'executing' || e.result.status === 'pending' ? 'running' : e.result.status,
      ms: performance.now() - r.startedAt,
    });
    r.detail = e.result.error ?? `${e.result.usage.totalTokens} tokens`;
    draw(`${e.nodeId} ${e.result.status}`);
  });
  graph.on('transition', (e) => {
    const t = e.transition;
    if (t.kind !== 'start') draw(`${t.from ?? '·'} → ${t.to ?? 'end'} (${t.kind}: ${t.reason})`);
  });
  const ticker = live ? setInterval(() => draw(), 100) : undefined;

  const message = process.argv[2] ?? 'Hi, I was charged twice for order 42';
  console.log(`[model] ${models.description}\ncustomer> ${message}\n`);
  const result = await graph.invoke(message);
  if (ticker) clearInterval(ticker);
  draw();
  console.log(
    `\n${result.status} in ${(result.executionTimeMs / 1000).toFixed(2)}s, ${result.accumulatedUsage.totalTokens} tokens`,
  );
  console.log(`desk> ${result.results['summary']?.text ?? result.failureReason ?? ''}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
