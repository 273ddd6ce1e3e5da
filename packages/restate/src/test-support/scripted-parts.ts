/**
 * The scripted parts the Restate tests and benchmarks run: models that are pure functions of the
 * request (a retry on a fresh process answers the same), counted tools, and the support desk graph.
 * Every model call and tool run appends a line to `SKEIN_TRACE_FILE`, so a test can count what ran.
 */
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { Agent, tool, type ModelRequest } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder, type Graph } from '@skein/graph';

const traceFile = process.env['SKEIN_TRACE_FILE'] ?? '/dev/null';
const toolDelayMs = Number(process.env['SKEIN_TOOL_DELAY_MS'] ?? 0);
/** Per-tool waits that override SKEIN_TOOL_DELAY_MS: `{"lookup_order": 50}`. */
const toolDelays = JSON.parse(process.env['SKEIN_TOOL_DELAYS_MS'] ?? '{}') as Record<string, number>;
export const trace = (line: string): void => appendFileSync(traceFile, `${line}\n`);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const lastUserText = (request: ModelRequest): string => {
  for (const m of [...request.messages].reverse()) {
    if (m.role === 'user' && m.content.some((b) => 'text' in b))
      return m.content.map((b) => ('text' in b ? b.text : '')).join('');
  }
  return '';
};
const allText = (request: ModelRequest): string =>
  request.messages
    .flatMap((m) => m.content)
    .map((b) => ('text' in b ? b.text : ''))
    .join('\n');
const resultsSoFar = (request: ModelRequest): number =>
  request.messages.flatMap((m) => m.content).filter((b) => 'toolResult' in b).length;

/** A model that plays `name`: asks for `tools` (each with the turn's order id) once, then answers. */
export function model(name: string, tools: string[]): ScriptedModel {
  return new ScriptedModel(
    [
      (request): ScriptedTurn => {
        const done = resultsSoFar(request);
        trace(`model ${name} ${request.messages.length}`);
        const orderId =
          /[Oo]rder (\d+)/.exec(lastUserText(request))?.[1] ?? /[Oo]rder (\d+)/.exec(allText(request))?.[1] ?? '0';
        const last = request.messages.at(-1);
        if (tools.length > 0 && !(last?.role === 'user' && last.content.some((b) => 'toolResult' in b))) {
          return {
            toolUses: tools.map((t, i) => ({ name: t, input: { orderId }, toolUseId: `${name}-${t}-${done + i}` })),
          };
        }
        return `${name} handled order ${orderId} (${done} tool results seen).`;
      },
    ],
    { loop: true, record: false },
  );
}

export const countedTool = (name: string, needsApproval = false) =>
  tool({
    name,
    description: `The ${name} tool.`,
    needsApproval,
    inputSchema: z.object({ orderId: z.string() }),
    callback: async ({ orderId }, context) => {
      trace(`start ${name} ${context.toolUse.toolUseId}`);
      await sleep(toolDelays[name] ?? toolDelayMs);
      trace(`end ${name} ${context.toolUse.toolUseId}`);
      return `${name} done for order ${orderId}`;
    },
  });

/** The support desk: triage fans out to billing and audit (in parallel), which join into summary. */
export function buildDeskGraph(): Graph {
  const agent = (name: string, tools: string[]): Agent =>
    new Agent({ name, model: model(name, tools), tools: tools.map((t) => countedTool(t)) });
  return new GraphBuilder()
    .addNode(agent('triage', []), 'triage')
    .addNode(agent('billing', ['lookup_order']), 'billing')
    .addNode(agent('audit', ['check_invoice']), 'audit')
    .addNode(agent('summary', []), 'summary')
    .addEdge('triage', 'billing')
    .addEdge('triage', 'audit')
    .addEdge(['billing', 'audit'], 'summary')
    .build();
}
