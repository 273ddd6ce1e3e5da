/**
 * One process of the crash test: `crash` runs a two-node graph on a FileSessionManager until node b
 * runs, says so and waits to be killed; `resume` runs the same graph (same id and session) to its
 * end. Spans are appended to `<dir>/spans-<mode>.jsonl` as each one ends, so a kill loses none that ended.
 * Run: node --conditions=@skein/source --import tsx crash-worker.ts <dir> crash|resume
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BasicTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { FileSessionManager } from '@skein/session-file';
import { instrument } from '../index.js';

const [dir = '', mode = 'crash'] = process.argv.slice(2);
const file = join(dir, `spans-${mode}.jsonl`);

class FileExporter implements SpanExporter {
  export(spans: ReadableSpan[], done: Parameters<SpanExporter['export']>[1]): void {
    for (const s of spans) {
      const line = {
        name: s.name,
        traceId: s.spanContext().traceId,
        spanId: s.spanContext().spanId,
        parentSpanId: s.parentSpanContext?.spanId,
        links: s.links.map((l) => l.context.traceId),
        runId: s.attributes['skein.run.id'],
      };
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    }
    done({ code: 0 }); // ExportResultCode.SUCCESS
  }
  async shutdown(): Promise<void> {}
}

const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new FileExporter())] });
const graph = new GraphBuilder()
  .setId('pipeline')
  .setSessionManager(new FileSessionManager({ sessionId: 'case-1', storageDir: join(dir, 'sessions') }))
  .addNode(new Agent({ name: 'a', model: new ScriptedModel(['A']) }), 'a')
  .addNode(
    new Agent({ name: 'b', model: new ScriptedModel(mode === 'crash' ? [{ text: 'never', delayMs: 60_000 }] : ['B']) }),
    'b',
  )
  .addEdge('a', 'b')
  .build();
instrument(graph, { tracerProvider: provider });
graph.on('nodeStart', (e) => {
  if (e.nodeId === 'b' && mode === 'crash') console.log('RUNNING b');
});
const result = await graph.invoke('task');
await provider.shutdown();
console.log(JSON.stringify({ status: result.status }));
