import type { NodeTransition } from '@skein/core';
import type { StepView } from '../view/steps-view.js';
import { statusColour, type Paint } from './ansi.js';

const arrow = (t: NodeTransition): string => `${t.from ?? '·'} → ${t.to ?? '·'} ${t.kind}`;

/** `skein show --steps`: every kept step of an orchestrator, one line each, with what was running, waiting, paused and done. */
export function renderSteps(orchestratorId: string, steps: readonly StepView[], paint: Paint): string {
  const runs = [...new Set(steps.map((s) => s.run))];
  const out = [
    `${paint.bold(orchestratorId)}  ${steps.length} step(s) kept${runs.length > 0 ? ` in run(s) ${runs.join(', ')}` : ' (no history: keep is none, or it was written before time travel)'}`,
  ];
  for (const s of steps) {
    if (s.forkedFrom) {
      const from = s.forkedFrom;
      out.push(`  ${paint.dim(`fork of session ${String(from['sessionId'])} at step ${String(from['step'])}`)}`);
    }
    const parts = [
      `  ${paint.bold(`step ${s.step}`)}`,
      paint.dim(`run ${s.run}`),
      statusColour(paint, s.status)(s.status.padEnd(11)),
      s.transitions.length > 0 ? s.transitions.map(arrow).join(', ') : paint.dim('(no transition)'),
    ];
    const sets = [
      s.running.length > 0 ? `running: ${s.running.join(', ')}` : '',
      s.waiting.length > 0 ? `waiting: ${s.waiting.join(', ')}` : '',
      s.paused.length > 0 ? paint.yellow(`paused: ${s.paused.join(', ')}`) : '',
      Object.keys(s.done).length > 0
        ? `done: ${Object.entries(s.done)
            .map(([id, st]) => (st === 'completed' ? id : `${id} (${st})`))
            .join(', ')}`
        : '',
    ].filter(Boolean);
    out.push(`${parts.join('  ')}${sets.length > 0 ? `  ${paint.dim('|')} ${sets.join('  ')}` : ''}`);
  }
  return `${out.join('\n')}\n`;
}
