/**
 * One process of the inspector's crashed-run fixture: runs the support graph on a FileSessionManager
 * (session `graph-killed` under `<dir>`) with billing hanging, says `RUNNING billing` once billing has
 * started, and waits to be SIGKILLed.
 * Run: node --conditions=@skein/source --import tsx crash-worker.ts <dir>
 */
import { FileSessionManager } from '@skein/session-file';
import { supportGraph } from './fixtures.js';

const [dir = ''] = process.argv.slice(2);
const graph = supportGraph(new FileSessionManager({ sessionId: 'graph-killed', storageDir: dir }), {
  hangBilling: new AbortController(),
});
graph.on('nodeStart', (e) => {
  if (e.nodeId === 'billing') console.log('RUNNING billing');
});
await graph.invoke('I was charged twice for order 42');
