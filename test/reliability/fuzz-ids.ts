/**
 * Bad ids: `..`, absolute paths, NUL, 10 kB, unicode, empty and friends, as a session id, an agent
 * id, a multi-agent id (Graph `setId`, Swarm `id`) and a node id (Graph `addNode(agent, id)`, a Swarm
 * member's name), each with a FileSessionManager over a store that already holds a session.
 * Rejected: a skein error naming the id, and the stored session unchanged. Accepted: every file
 * written stays under the root. Either way nothing outside the root is written.
 */
import path from 'node:path';
import { Agent, type SessionManager } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { FileSessionManager } from '@skein/session-file';
import { Swarm } from '@skein/swarm';
import {
  attempt,
  changes,
  describeError,
  errorProblems,
  outsideChanges,
  sandbox,
  snapshot,
  type FuzzCaseReport,
  type Sandbox,
} from './fuzz-support.js';

/** The bad ids; `{outside}` becomes the sandbox's outside directory (an absolute path). */
const IDS: [label: string, id: string][] = [
  ['..', '..'],
  ['../escape', '../escape'],
  ['a/../../b', 'a/../../b'],
  ['an absolute path', '{outside}/abs'],
  ['a/b', 'a/b'],
  ['a\\b', 'a\\b'],
  ['NUL inside', 'a\u0000b'],
  ['10 kB', 'x'.repeat(10_240)],
  ['unicode letters', 'ünïcødé-日本語'],
  ['an emoji', 'agent-😀'],
  ['a lone surrogate', 'a\ud800b'],
  ['empty', ''],
  ['.', '.'],
  ['a leading dot', '.hidden'],
  ['a space', 'a b'],
  ['a newline', 'a\nb'],
  ['a trailing dot', 'name.'],
];

type Target = 'session id' | 'agent id' | 'graph id' | 'swarm id' | 'graph node id' | 'swarm member name';
const TARGETS: Target[] = ['session id', 'agent id', 'graph id', 'swarm id', 'graph node id', 'swarm member name'];
/** What a rejection's message must name, per target. */
const NAMES: Record<Target, RegExp> = {
  'session id': /session id/i,
  'agent id': /agent id/i,
  'graph id': /graph id|orchestrator id|setId/i,
  'swarm id': /swarm id|multi-agent id|\bid\b/i,
  'graph node id': /node id|node/i,
  'swarm member name': /name|node id|agent id/i,
};

/** The number of id cases (seeds cycle through them). */
export const ID_CASES = IDS.length * TARGETS.length;

const model = (): ScriptedModel => new ScriptedModel(['Done.'], { loop: true });

async function exercise(target: Target, id: string, root: string): Promise<void> {
  const managers: FileSessionManager[] = [];
  const manager = (sessionId = 'fuzz'): SessionManager => {
    const m = new FileSessionManager({ sessionId, storageDir: root });
    managers.push(m);
    return m;
  };
  try {
    switch (target) {
      case 'session id':
        await new Agent({ model: model(), sessionManager: manager(id) }).invoke('hi');
        break;
      case 'agent id':
        await new Agent({ id, model: model(), sessionManager: manager() }).invoke('hi');
        break;
      case 'graph id':
        await new GraphBuilder()
          .setId(id)
          .addNode(new Agent({ name: 'writer', model: model() }), 'writer')
          .setSessionManager(manager())
          .build()
          .invoke('task');
        break;
      case 'swarm id':
        await new Swarm({
          id,
          nodes: [new Agent({ name: 'writer', model: model() })],
          sessionManager: manager(),
        }).invoke('task');
        break;
      case 'graph node id':
        await new GraphBuilder()
          .addNode(new Agent({ name: 'writer', model: model() }), id)
          .setSessionManager(manager())
          .build()
          .invoke('task');
        break;
      case 'swarm member name':
        await new Swarm({ nodes: [new Agent({ name: id, model: model() })], sessionManager: manager() }).invoke('task');
        break;
    }
  } finally {
    for (const m of managers) await m.close();
  }
}

async function seedStore(s: Sandbox): Promise<void> {
  const sessionManager = new FileSessionManager({ sessionId: 'fuzz', storageDir: s.root });
  await new Agent({ id: 'keeper', model: model(), sessionManager }).invoke('Remember me.');
  await sessionManager.close();
}

/** One case: the seed picks the id and the place it goes (cycling through all pairs). */
export async function idCase(seed: number): Promise<FuzzCaseReport> {
  const [label, raw] = IDS[seed % IDS.length]!;
  const target = TARGETS[Math.floor(seed / IDS.length) % TARGETS.length]!;
  const s = await sandbox();
  const id = raw.replace('{outside}', s.outside);
  const violations: string[] = [];
  let outcome: FuzzCaseReport['outcome'] = 'accepted';
  let error: string | undefined;
  try {
    await seedStore(s);
    const before = await snapshot(s.parent);
    const failure = await attempt(() => exercise(target, id, s.root));
    const after = await snapshot(s.parent);
    violations.push(...outsideChanges(before, after, s.parent, s.root));
    if (failure !== undefined) {
      outcome = 'rejected';
      error = describeError(failure);
      violations.push(...errorProblems(failure, { names: NAMES[target] }));
      // A rejected id may leave the new session it was checked in, never a change to what was stored.
      violations.push(...changes(before, after, () => true).map((c) => `a rejected id changed the store: ${c}`));
    } else {
      const escaped = [...after.keys()].filter((rel) => !before.has(rel) && !path.normalize(rel).startsWith('store'));
      if (escaped.length > 0) violations.push(`wrote outside the root: ${escaped.join(', ')}`);
    }
  } finally {
    await s.remove();
  }
  return { category: 'ids', name: `${target}: ${label}`, outcome, ...(error ? { error } : {}), violations };
}
