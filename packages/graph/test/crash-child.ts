/**
 * Child process of test/graph-crash.e2e.test.ts: runs the graph a -> (b, x) -> join c -> d with a
 * FileSessionManager and logs every node start to a file. Modes:
 *   between <node>  after <node> finished and was persisted, print "ready" and hang (the parent kills us)
 *   during <node>   when <node>'s model call starts, print "ready" and hang inside the node
 *   uncommitted <node>  after every write of <node>'s step but its commit point (node entry, agent
 *                   messages and state stored; state document not yet), print "ready" and hang
 *   none            run (or resume) to the end and print the result as JSON
 * Usage: node --conditions=@skein/source --import tsx crash-child.ts <storageDir> <logFile> <mode> [node]
 */
import { appendFileSync } from 'node:fs';
import {
  AfterNodeCallEvent,
  Agent,
  RepositorySessionManager,
  type SessionManager,
  type SessionRepository,
} from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { FileSessionManager, FileSessionRepository } from '@skein/session-file';

const [storageDir, logFile, mode, target] = process.argv.slice(2) as [string, string, string, string | undefined];

function node(name: string): Agent {
  const turn: ScriptedTurn = () => {
    appendFileSync(logFile, `start ${name} ${process.pid}\n`);
    if (mode === 'during' && name === target) {
      process.stdout.write('ready\n');
      return { text: 'never', delayMs: 600_000 };
    }
    return { text: `${name} done`, delayMs: 5 };
  };
  return new Agent({ name, model: new ScriptedModel([turn]) });
}

/** The file repository, except that the state document after `target`'s node entry is never written: the process hangs there. */
function holdingCommit(repository: FileSessionRepository): SessionRepository {
  let entryStored = false;
  return new Proxy(repository, {
    get(t, prop) {
      if (prop === 'putNodeEntry') {
        return async (...args: Parameters<SessionRepository['putNodeEntry']>) => {
          await t.putNodeEntry(...args);
          if (args[2] === target) entryStored = true;
        };
      }
      if (prop === 'updateMultiAgent') {
        return async (...args: Parameters<SessionRepository['updateMultiAgent']>) => {
          if (!entryStored) return t.updateMultiAgent(...args);
          process.stdout.write('ready\n');
          await new Promise(() => undefined);
        };
      }
      const value: unknown = Reflect.get(t, prop, t);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
    },
  });
}

const sessionManager: SessionManager & { close?: () => Promise<void> } =
  mode === 'uncommitted'
    ? new RepositorySessionManager({
        sessionId: 'crash',
        repository: holdingCommit(new FileSessionRepository({ storageDir })),
      })
    : new FileSessionManager({ sessionId: 'crash', storageDir });
const graph = new GraphBuilder()
  .setId('crashy')
  .setSessionManager(sessionManager)
  .addNode(node('a'))
  .addNode(node('b'))
  .addNode(node('x'))
  .addNode(node('c'))
  .addNode(node('d'))
  .addEdge('a', 'b')
  .addEdge('a', 'x')
  .addEdge(['b', 'x'], 'c')
  .addEdge('c', 'd')
  .build();

if (mode === 'between') {
  graph.hooks.addCallback(AfterNodeCallEvent, async (event) => {
    if (event.nodeId !== target) return;
    process.stdout.write('ready\n');
    await new Promise(() => undefined);
  });
}

const result = await graph.invoke('the crash task');
const messages = Object.fromEntries(
  [...graph.nodes.values()].map((n) => [n.id, (n.target as Agent).messages.map((m) => m.role)]),
);
process.stdout.write(
  `${JSON.stringify({ status: result.status, executionOrder: result.executionOrder, kinds: result.transitions.map((t) => t.kind), messages })}\n`,
);
await sessionManager.close?.();
