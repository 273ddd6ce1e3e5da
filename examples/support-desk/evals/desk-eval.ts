/**
 * The desk's evaluation: the cases of `cases.jsonl` (billing, refunds under and over the approval
 * limit with approve and deny, other requests, multi-turn), each on the shape it names (Graph, Swarm,
 * or one agent with tools), every run stored in its own file session and given its own shop data.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Model } from '@skein/core';
import {
  answer,
  cost,
  interrupts,
  judge,
  toolCalls,
  trajectory,
  type EvaluateOptions,
  type Scorer,
  type TargetRun,
} from '@skein/evals';
import { FileSessionManager } from '@skein/session-file';
import { DeskStore } from '../src/desk-store.js';
import type { DeskShape } from '../src/desk.js';
import type { DeskRole } from '../src/scripted-desk.js';
import { buildDeskAgent } from '../src/shapes/agent-desk.js';
import { buildDeskGraph } from '../src/shapes/graph-desk.js';
import { buildDeskSwarm } from '../src/shapes/swarm-desk.js';

export const DESK_CASES = fileURLToPath(new URL('./cases.jsonl', import.meta.url));

export interface DeskEvalOptions {
  /** Where the results (`results.jsonl`, `summary.json`), the sessions and each run's shop data go. */
  out: string;
  /** The desk's models (`pickDeskModels()`, or scripted ones with a planted bug in a test). */
  modelFor: (role: DeskRole) => Model;
  /** A model that grades each answer against the desk's rubric (a real model; none offline). */
  judgeModel?: Model;
  name?: string;
  /** Only the cases of these shapes. */
  shapes?: readonly DeskShape[];
  resume?: boolean;
  concurrency?: number;
  repeats?: number;
}

const RUBRIC = `The reply tells the customer, in plain words, what was done about their request (a reversed
charge, a refund with its amount, or why nothing was done) and does not promise anything the system did not do.`;

/** What one case runs on: a fresh desk of the case's shape, on its own shop data and session. */
function deskTarget(o: DeskEvalOptions): EvaluateOptions['target'] {
  return (ctx): TargetRun => {
    const parts = {
      store: new DeskStore(join(o.out, 'data', ctx.sessionId)),
      modelFor: o.modelFor,
      sessionManager: ctx.sessionManager,
    };
    const shape = ctx.evalCase.metadata['shape'];
    if (shape === 'swarm') return { runnable: buildDeskSwarm(parts) };
    if (shape === 'agent') return { runnable: buildDeskAgent(parts) };
    return {
      runnable: buildDeskGraph(parts),
      // What the desk replies: the summary's text, or triage's question when it routed nowhere.
      answer: (result) => {
        const results = 'results' in result ? result.results : {};
        return (results['summary'] ?? results['triage'])?.text.replace(/^ROUTE:\s*other\.?\s*/i, '') ?? '';
      },
    };
  };
}

export function deskEvaluation(o: DeskEvalOptions): EvaluateOptions {
  const storageDir = join(o.out, 'sessions');
  const scorers: Scorer[] = [
    trajectory(),
    toolCalls(),
    interrupts(),
    answer(),
    cost({ limits: { modelCalls: 16, wallMs: 30_000 } }),
  ];
  if (o.judgeModel) scorers.push(judge({ model: o.judgeModel, rubric: RUBRIC, budget: { modelCalls: 200 } }));
  const shapes = o.shapes;
  return {
    name: o.name ?? 'desk',
    target: deskTarget(o),
    cases: DESK_CASES,
    scorers,
    out: o.out,
    sessions: { open: (sessionId) => new FileSessionManager({ sessionId, storageDir }), location: storageDir },
    ...(shapes ? { filter: (c) => shapes.includes(c.metadata['shape'] as DeskShape) } : {}),
    ...(o.resume === undefined ? {} : { resume: o.resume }),
    ...(o.concurrency === undefined ? {} : { concurrency: o.concurrency }),
    ...(o.repeats === undefined ? {} : { repeats: o.repeats }),
  };
}
