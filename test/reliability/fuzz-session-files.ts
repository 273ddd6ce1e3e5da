/**
 * Bad session files: a stored agent session (FileSessionManager, 6 messages with a tool pair) whose
 * files are then truncated, given fields of wrong types, left with gaps in the message numbers, made
 * huge, or replaced by symlinks out of the storage root; then restored by a new FileSessionManager and
 * invoked. Rejected: a SessionError naming the file, and the store exactly as it was. Accepted: a valid
 * history, data that reads back. Either way nothing outside the root is written.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { Agent, tool, type Message } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { FileSessionManager, FileSessionRepository } from '@skein/session-file';
import {
  attempt,
  describeError,
  edit,
  ignoreUpdatedAt,
  outsideChanges,
  rejectionProblems,
  sandbox,
  snapshot,
  type FuzzCaseReport,
  type Json,
  type Mutation,
} from './fuzz-support.js';

const SESSION = 'session_s1';
const AGENT = `${SESSION}/agents/agent_a1`;
const MESSAGES = `${AGENT}/messages`;
const FILES = ['session.json', 'agent.json', 'message_0.json', 'message_1.json', 'message_2.json', 'message_5.json'];
const fileOf = (name: string): string =>
  name === 'session.json' ? `${SESSION}/${name}` : name === 'agent.json' ? `${AGENT}/${name}` : `${MESSAGES}/${name}`;
const re = (name: string): RegExp => new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

const lookup = tool({
  name: 'lookup',
  description: 'Looks an order up.',
  inputSchema: z.object({ id: z.string() }),
  callback: ({ id }) => `order ${id}: 80 EUR`,
});

const field = (rel: string, label: string, change: (doc: Json) => unknown): Mutation => ({
  name: `${label} in ${path.basename(rel)}`,
  names: re(path.basename(rel)),
  apply: (s) => edit(s, rel, change),
});
/** A change inside a stored message: a rejection may name the file or (core's restore check) the message number. */
const inMessage = (n: number, label: string, change: (message: Json) => void): Mutation => ({
  ...field(`${MESSAGES}/message_${n}.json`, label, (doc) => {
    change(doc['message'] as Json);
    return doc;
  }),
  names: new RegExp(`message_${n}\\.json|message ${n} of agent a1`),
});
const set =
  (key: string, value: unknown) =>
  (doc: Json): Json => ({ ...doc, [key]: value });

/** Moves `rel` to `outside/<name>` and leaves a symlink to it in its place. */
const linkOut = (rel: string): Mutation => ({
  name: `${rel.split('/').at(-1)} is a symlink out of the root`,
  names: re(rel.split('/').at(-1)!),
  async apply(s) {
    const target = path.join(s.outside, path.basename(rel));
    await fs.rename(path.join(s.root, rel), target);
    await fs.symlink(target, path.join(s.root, rel));
  },
});

const MUTATIONS: Mutation[] = [
  ...FILES.map(
    (name): Mutation => ({
      name: `${name} truncated`,
      names: re(name),
      async apply(s, random) {
        const file = path.join(s.root, fileOf(name));
        const text = await fs.readFile(file);
        await fs.writeFile(file, text.subarray(0, Math.floor(random() * text.length)));
      },
    }),
  ),
  field(`${SESSION}/session.json`, 'session_id a number', set('session_id', 5)),
  field(`${SESSION}/session.json`, 'a JSON array instead of an object', () => []),
  field(`${AGENT}/agent.json`, 'agent_id a number', set('agent_id', 5)),
  field(`${AGENT}/agent.json`, 'state an array', set('state', [1, 2])),
  field(`${AGENT}/agent.json`, 'conversation_manager_state a number', set('conversation_manager_state', 5)),
  field(
    `${AGENT}/agent.json`,
    'removed_message_count a string',
    set('conversation_manager_state', { removed_message_count: 'x' }),
  ),
  field(
    `${AGENT}/agent.json`,
    'removed_message_count negative',
    set('conversation_manager_state', { removed_message_count: -3 }),
  ),
  {
    ...field(
      `${AGENT}/agent.json`,
      'removed_message_count past the end',
      set('conversation_manager_state', { removed_message_count: 1e9 }),
    ),
    names: /removed_message_count/,
  },
  field(
    `${AGENT}/agent.json`,
    'removed_message_count a fraction',
    set('conversation_manager_state', { removed_message_count: 2.5 }),
  ),
  {
    ...field(
      `${AGENT}/agent.json`,
      'written by another conversation manager',
      set('conversation_manager_state', { __name__: 'SummarizingConversationManager', removed_message_count: 0 }),
    ),
    names: /conversation manager/,
  },
  field(`${AGENT}/agent.json`, 'interrupt_state a string', set('_internal_state', { interrupt_state: 'x' })),
  field(
    `${AGENT}/agent.json`,
    'interrupt_state of wrong shapes',
    set('_internal_state', { interrupt_state: { interrupts: 5, toolUses: 'x', results: null } }),
  ),
  field(`${MESSAGES}/message_1.json`, 'message null', set('message', null)),
  field(`${MESSAGES}/message_1.json`, 'message_id a string', set('message_id', '1')),
  field(`${MESSAGES}/message_1.json`, 'message_id another number', set('message_id', 7)),
  field(`${MESSAGES}/message_1.json`, 'redact_message a number', set('redact_message', 5)),
  field(`${MESSAGES}/message_1.json`, 'created_at a number', set('created_at', 5)),
  inMessage(0, 'role system', (m) => (m['role'] = 'system')),
  inMessage(0, 'role a number', (m) => (m['role'] = 5)),
  inMessage(0, 'content a string', (m) => (m['content'] = 'hi')),
  inMessage(0, 'a content block that is a number', (m) => (m['content'] = [5])),
  inMessage(0, 'text a number', (m) => (m['content'] = [{ text: 5 }])),
  inMessage(0, 'a content block of unknown kind', (m) => (m['content'] = [{ hologram: { depth: 3 } }])),
  inMessage(1, 'a toolUse without id and name', (m) => (m['content'] = [{ toolUse: {} }])),
  inMessage(
    2,
    'a toolResult with content a string',
    (m) => (m['content'] = [{ toolResult: { toolUseId: 'x', status: 'success', content: 'done' } }]),
  ),
  inMessage(
    0,
    'image bytes not base64',
    (m) => (m['content'] = [{ image: { format: 'png', source: { bytes: { __bytes_encoded__: true, data: 5 } } } }]),
  ),
  ...[1, 2, 4].map(
    (n): Mutation => ({
      name: `message_${n}.json deleted (a gap)`,
      names: re(`message_${n}.json`),
      apply: (s) => fs.rm(path.join(s.root, MESSAGES, `message_${n}.json`)),
    }),
  ),
  {
    name: 'message_5.json renamed message_9.json (a gap at the end)',
    names: /message_(5|6|9)\.json/,
    apply: (s) =>
      fs.rename(path.join(s.root, MESSAGES, 'message_5.json'), path.join(s.root, MESSAGES, 'message_9.json')),
  },
  {
    name: 'stray message_01.json and message_-1.json',
    names: /message_/,
    apply: async (s) => {
      await fs.copyFile(path.join(s.root, MESSAGES, 'message_0.json'), path.join(s.root, MESSAGES, 'message_01.json'));
      await fs.copyFile(path.join(s.root, MESSAGES, 'message_0.json'), path.join(s.root, MESSAGES, 'message_-1.json'));
    },
  },
  inMessage(3, 'a 4 MB text', (m) => (m['content'] = [{ text: 'x'.repeat(4 << 20) }])),
  inMessage(
    3,
    '20,000 content blocks',
    (m) => (m['content'] = Array.from({ length: 20_000 }, (_, i) => ({ text: `part ${i} ` }))),
  ),
  {
    name: 'state nested 20,000 deep in agent.json',
    names: re('agent.json'),
    apply: async (s) => {
      const file = path.join(s.root, AGENT, 'agent.json');
      const doc = JSON.parse(await fs.readFile(file, 'utf8')) as Json;
      await fs.writeFile(
        file,
        JSON.stringify({ ...doc, state: { deep: 0 } }).replace(
          '"deep":0',
          `"deep":${'['.repeat(20_000)}${']'.repeat(20_000)}`,
        ),
      );
    },
  },
  {
    name: 'message_2.json is 3 MB of junk',
    names: re('message_2.json'),
    apply: (s) => fs.writeFile(path.join(s.root, MESSAGES, 'message_2.json'), Buffer.alloc(3 << 20, 0x7b)),
  },
  {
    name: 'message_2.json a symlink to a file outside that is not JSON',
    names: re('message_2.json'),
    apply: async (s) => {
      await fs.rm(path.join(s.root, MESSAGES, 'message_2.json'));
      await fs.symlink(path.join(s.outside, 'secret.txt'), path.join(s.root, MESSAGES, 'message_2.json'));
    },
  },
  linkOut(`${MESSAGES}/message_3.json`),
  linkOut(`${AGENT}/agent.json`),
  linkOut(`${SESSION}/session.json`),
  linkOut(MESSAGES),
  linkOut(AGENT),
  linkOut(`${SESSION}/agents`),
  linkOut(SESSION),
  {
    name: 'message_2.json a symlink to itself',
    names: re('message_2.json'),
    apply: async (s) => {
      const file = path.join(s.root, MESSAGES, 'message_2.json');
      await fs.rm(file);
      await fs.symlink(file, file);
    },
  },
  {
    name: 'message_2.json a dangling symlink',
    names: re('message_2.json'),
    apply: async (s) => {
      const file = path.join(s.root, MESSAGES, 'message_2.json');
      await fs.rm(file);
      await fs.symlink(path.join(s.outside, 'gone.json'), file);
    },
  },
];

/** The number of session-file cases (seeds cycle through them). */
export const SESSION_FILE_CASES = MUTATIONS.length;

async function store(root: string): Promise<void> {
  const sessionManager = new FileSessionManager({ sessionId: 's1', storageDir: root });
  const model = new ScriptedModel([
    { toolUses: [{ name: 'lookup', input: { id: '1' } }] },
    'Order 1 is 80 EUR.',
    'You are welcome.',
  ]);
  const agent = new Agent({ id: 'a1', model, tools: [lookup], sessionManager });
  await agent.invoke('How much was order 1?');
  await agent.invoke('Thanks.');
  await sessionManager.close();
}

function orphans(messages: readonly Message[]): string[] {
  const results = new Set(
    messages.flatMap((m) =>
      (Array.isArray(m.content) ? m.content : []).flatMap((b) =>
        b && 'toolResult' in b ? [b.toolResult.toolUseId] : [],
      ),
    ),
  );
  return messages.flatMap((m) =>
    (Array.isArray(m.content) ? m.content : []).flatMap((b) =>
      b && 'toolUse' in b && !results.has(b.toolUse.toolUseId) ? [String(b.toolUse.toolUseId)] : [],
    ),
  );
}

/** One case: the seed picks the mutation (cycling) and its details. */
export async function sessionFileCase(seed: number, random: () => number): Promise<FuzzCaseReport> {
  const mutation = MUTATIONS[seed % MUTATIONS.length]!;
  const s = await sandbox();
  const violations: string[] = [];
  let outcome: FuzzCaseReport['outcome'] = 'accepted';
  let error: string | undefined;
  try {
    await store(s.root);
    await mutation.apply(s, random);
    const before = await snapshot(s.parent, ignoreUpdatedAt);
    const sessionManager = new FileSessionManager({ sessionId: 's1', storageDir: s.root });
    const agent = new Agent({
      id: 'a1',
      model: new ScriptedModel(['Again.'], { loop: true }),
      tools: [lookup],
      sessionManager,
    });
    const failure = await attempt(() => agent.invoke('Once more.'));
    await sessionManager.close();
    const after = await snapshot(s.parent, ignoreUpdatedAt);
    violations.push(...outsideChanges(before, after, s.parent, s.root));
    if (failure !== undefined) {
      outcome = 'rejected';
      error = describeError(failure);
      violations.push(...rejectionProblems(failure, mutation.names, before, after, 'restore'));
    } else {
      const bad = orphans(agent.messages);
      if (bad.length > 0) violations.push(`restored history has a toolUse without its toolResult: ${bad.join(', ')}`);
      const reread = await attempt(() => new FileSessionRepository({ storageDir: s.root }).listMessages('s1', 'a1'));
      if (reread !== undefined)
        violations.push(`the store does not read back after an accepted restore: ${describeError(reread)}`);
    }
  } finally {
    await s.remove();
  }
  return { category: 'session files', name: mutation.name, outcome, ...(error ? { error } : {}), violations };
}
