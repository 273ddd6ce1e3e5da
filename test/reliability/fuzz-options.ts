/**
 * Options of wrong types given to `new Agent`, `new Swarm`, `GraphBuilder`, `new FileSessionManager`
 * and `tool()`. Rejected: a ConfigurationError (or the documented TypeError of agent.state) whose
 * message names the option. Accepted: what was built must still work (an invocation succeeds or fails
 * with a skein error naming the option), never a TypeError from inside skein later.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { Agent, tool, type AgentOptions, type ToolOptions } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { FileSessionManager, type FileSessionManagerOptions } from '@skein/session-file';
import { Swarm, type SwarmOptions } from '@skein/swarm';
import {
  attempt,
  describeError,
  errorProblems,
  outsideChanges,
  sandbox,
  snapshot,
  type FuzzCaseReport,
  type Sandbox,
} from './fuzz-support.js';

/** Builds something from bad options, then uses it; `names` is what an error must name. */
interface OptionCase {
  name: string;
  names: RegExp;
  /** Accept the documented TypeError of agent.state. */
  stateTypeError?: boolean;
  build(s: Sandbox): unknown;
  use(built: unknown): Promise<unknown>;
}

const model = (): ScriptedModel =>
  new ScriptedModel([{ toolUses: [{ name: 'lookup', input: { id: '1' } }] }, 'Done.'], { loop: true });
const lookup = (): ReturnType<typeof tool> =>
  tool({
    name: 'lookup',
    description: 'Looks an order up.',
    inputSchema: z.object({ id: z.string() }),
    callback: ({ id }) => `order ${id}`,
  });
const asAgent = (built: unknown): Promise<unknown> => (built as Agent).invoke('Look order 1 up.');
const invoke = (built: unknown): Promise<unknown> =>
  (built as { invoke(task: string): Promise<unknown> }).invoke('task');
const member = (name = 'writer'): Agent => new Agent({ name, model: new ScriptedModel(['Done.'], { loop: true }) });

const agentCase = (
  name: string,
  names: RegExp,
  options: (s: Sandbox) => unknown,
  stateTypeError = false,
): OptionCase => ({
  name: `new Agent: ${name}`,
  names,
  stateTypeError,
  build: (s) => new Agent(options(s) as AgentOptions),
  use: asAgent,
});
const withModel = (extra: Record<string, unknown>) => (): unknown => ({ model: model(), tools: [lookup()], ...extra });

const swarmCase = (name: string, names: RegExp, options: () => unknown): OptionCase => ({
  name: `new Swarm: ${name}`,
  names,
  build: () => new Swarm(options() as SwarmOptions),
  use: invoke,
});
const swarmWith = (extra: Record<string, unknown>) => (): unknown => ({ nodes: [member()], ...extra });

type Builder = Record<string, (...args: unknown[]) => Builder> & { build(): unknown };
const graphCase = (name: string, names: RegExp, steps: (b: Builder) => Builder): OptionCase => ({
  name: `GraphBuilder: ${name}`,
  names,
  build: () => steps(new GraphBuilder() as unknown as Builder).build(),
  use: invoke,
});
const oneNode = (b: Builder): Builder => b['addNode']!(member(), 'writer');

const sessionCase = (name: string, names: RegExp, options: (s: Sandbox) => unknown): OptionCase => ({
  name: `new FileSessionManager: ${name}`,
  names,
  build: (s) => new FileSessionManager(options(s) as FileSessionManagerOptions),
  use: async (built) => {
    const manager = built as FileSessionManager;
    try {
      return await new Agent({ model: model(), tools: [lookup()], sessionManager: manager }).invoke('hi');
    } finally {
      await manager.close();
    }
  },
});

const toolCase = (name: string, names: RegExp, options: () => unknown): OptionCase => ({
  name: `tool(): ${name}`,
  names,
  build: () => tool(options() as ToolOptions<z.ZodObject>),
  use: (built) => new Agent({ model: model(), tools: [built as ReturnType<typeof tool>] }).invoke('Look order 1 up.'),
});
const toolWith = (extra: Record<string, unknown>) => (): unknown => ({
  name: 'lookup',
  description: 'Looks an order up.',
  inputSchema: z.object({ id: z.string() }),
  callback: () => 'ok',
  ...extra,
});

const CASES: OptionCase[] = [
  agentCase('no options', /options/, () => undefined),
  agentCase('null', /options/, () => null),
  agentCase('a string', /options/, () => 'agent'),
  agentCase('model a string', /model/, () => ({ model: 'claude' })),
  agentCase('model an empty object', /model/, () => ({ model: {} })),
  agentCase('tools a string', /tools/, withModel({ tools: 'lookup' })),
  agentCase('tools holding a number', /tools/, withModel({ tools: [5] })),
  agentCase('tools holding an empty object', /tools/, withModel({ tools: [{}] })),
  agentCase('two tools with one name', /lookup|name/, withModel({ tools: [lookup(), lookup()] })),
  agentCase('messages a string', /messages/, withModel({ messages: 'hello' })),
  agentCase('messages holding a number', /messages/, withModel({ messages: [5] })),
  agentCase(
    'messages with content a string',
    /messages|content/,
    withModel({ messages: [{ role: 'user', content: 'hi' }] }),
  ),
  agentCase(
    'messages with a block that is a number',
    /messages|content|block/,
    withModel({ messages: [{ role: 'user', content: [5] }] }),
  ),
  agentCase('state a number', /state/i, withModel({ state: 5 }), true),
  agentCase('state an array', /state/i, withModel({ state: [1] }), true),
  agentCase('state with a function', /function/, withModel({ state: { f: () => 1 } }), true),
  agentCase('state with a Date', /Date|object|serializ/i, withModel({ state: { d: new Date(0) } }), true),
  agentCase('state with a BigInt', /bigint/i, withModel({ state: { b: 10n } }), true),
  agentCase('systemPrompt a number', /systemPrompt/, withModel({ systemPrompt: 5 })),
  agentCase('name a number', /name/, withModel({ name: 5 })),
  agentCase('name empty', /name/, withModel({ name: '' })),
  agentCase('id a number', /id/, withModel({ id: 5 })),
  agentCase('description an object', /description/, withModel({ description: { a: 1 } })),
  agentCase('retryStrategy a string', /retryStrategy/, withModel({ retryStrategy: 'often' })),
  agentCase('retryStrategy.maxAttempts negative', /maxAttempts/, withModel({ retryStrategy: { maxAttempts: -1 } })),
  agentCase('retryStrategy.maxAttempts a string', /maxAttempts/, withModel({ retryStrategy: { maxAttempts: '3' } })),
  agentCase(
    'retryStrategy.initialDelayMs negative',
    /initialDelayMs|delay/,
    withModel({ retryStrategy: { initialDelayMs: -5 } }),
  ),
  agentCase('retryStrategy.jitter a string', /jitter/, withModel({ retryStrategy: { jitter: 'yes' } })),
  agentCase('toolExecutor unknown', /toolExecutor/, withModel({ toolExecutor: 'parallel' })),
  agentCase('maxConcurrentTools zero', /maxConcurrentTools/, withModel({ maxConcurrentTools: 0 })),
  agentCase('hooks a number', /hooks/, withModel({ hooks: 5 })),
  agentCase('hooks holding an empty object', /hooks|registerHooks/, withModel({ hooks: [{}] })),
  agentCase('callbackHandler a number', /callbackHandler/, withModel({ callbackHandler: 5 })),
  agentCase('conversationManager an empty object', /conversationManager/, withModel({ conversationManager: {} })),
  agentCase('sessionManager an empty object', /sessionManager/, withModel({ sessionManager: {} })),
  agentCase('recordDirectToolCall a string', /recordDirectToolCall/, withModel({ recordDirectToolCall: 'no' })),
  agentCase('handoffs a string', /handoffs/, withModel({ handoffs: 'billing' })),
  agentCase('handoffs holding a number', /handoffs/, withModel({ handoffs: [5] })),
  agentCase('an unknown option', /tool\b|Unknown/, withModel({ tool: [] })),
  swarmCase('no options', /options/, () => undefined),
  swarmCase('nodes a string', /nodes|agent/, () => ({ nodes: 'writer' })),
  swarmCase('nodes empty', /nodes|agent/, () => ({ nodes: [] })),
  swarmCase('nodes holding a number', /nodes|agent/i, () => ({ nodes: [5] })),
  swarmCase('one agent twice', /writer|name|twice|same/i, () => {
    const a = member();
    return { nodes: [a, a] };
  }),
  swarmCase('two agents with one name', /writer|name/i, () => ({ nodes: [member(), member()] })),
  swarmCase('maxHandoffs negative', /maxHandoffs/, swarmWith({ maxHandoffs: -1 })),
  swarmCase('maxIterations a string', /maxIterations/, swarmWith({ maxIterations: '5' })),
  swarmCase('executionTimeout NaN', /executionTimeout/, swarmWith({ executionTimeout: Number.NaN })),
  swarmCase('nodeTimeout a fraction', /nodeTimeout/, swarmWith({ nodeTimeout: 1.5 })),
  swarmCase('entryPoint not a member', /entryPoint/, swarmWith({ entryPoint: member('outsider') })),
  swarmCase('entryPoint an unknown name', /entryPoint|nobody/, swarmWith({ entryPoint: 'nobody' })),
  swarmCase('entryPoint a number', /entryPoint/, swarmWith({ entryPoint: 5 })),
  swarmCase('sessionManager a number', /sessionManager/, swarmWith({ sessionManager: 5 })),
  swarmCase('id a number', /\bid\b/, swarmWith({ id: 5 })),
  swarmCase('hooks a number', /hooks/, swarmWith({ hooks: 5 })),
  swarmCase('memberMemory unknown', /memberMemory/, swarmWith({ memberMemory: 'forever' })),
  swarmCase('nestHandoffHistory a string', /nestHandoffHistory/, swarmWith({ nestHandoffHistory: 'yes' })),
  swarmCase('handoffInputFilter a number', /handoffInputFilter/, swarmWith({ handoffInputFilter: 5 })),
  swarmCase('a member with its own session manager', /session manager|sessionManager/i, () => ({
    nodes: [
      new Agent({
        name: 'writer',
        model: model(),
        sessionManager: new FileSessionManager({
          sessionId: 'own',
          storageDir: path.join('/nonexistent', 'never-written'),
        }),
      }),
    ],
  })),
  graphCase('addNode of a number', /addNode|Agent/, (b) => b['addNode']!(5, 'a')),
  graphCase('addNode of nothing', /addNode|Agent/, (b) => b['addNode']!(undefined)),
  graphCase('a node id that is a number', /node id|id/, (b) => b['addNode']!(member(), 5)),
  graphCase('an edge to an unknown node', /zz/, (b) => oneNode(b)['addEdge']!('writer', 'zz')),
  graphCase('an edge from a number', /addEdge|node|source/, (b) => oneNode(b)['addEdge']!(5, 'writer')),
  graphCase('an edge condition a string', /condition/, (b) =>
    oneNode(b)['addNode']!(member('b'), 'b')['addEdge']!('writer', 'b', 'always'),
  ),
  graphCase('an unknown entry point', /zz/, (b) => oneNode(b)['setEntryPoint']!('zz')),
  graphCase('setMaxNodeExecutions negative', /setMaxNodeExecutions/, (b) => oneNode(b)['setMaxNodeExecutions']!(-1)),
  graphCase('setMaxNodeExecutions a string', /setMaxNodeExecutions/, (b) => oneNode(b)['setMaxNodeExecutions']!('3')),
  graphCase('setExecutionTimeout NaN', /setExecutionTimeout/, (b) => oneNode(b)['setExecutionTimeout']!(Number.NaN)),
  graphCase('setNodeTimeout a string', /setNodeTimeout/, (b) => oneNode(b)['setNodeTimeout']!('10s')),
  graphCase('setMaxConcurrency zero', /setMaxConcurrency/, (b) => oneNode(b)['setMaxConcurrency']!(0)),
  graphCase('setSessionManager a number', /setSessionManager/, (b) => oneNode(b)['setSessionManager']!(5)),
  graphCase('setId a number', /setId/, (b) => oneNode(b)['setId']!(5)),
  graphCase('resetOnRevisit a string', /resetOnRevisit/, (b) => oneNode(b)['resetOnRevisit']!('yes')),
  graphCase('no nodes', /node/, (b) => b),
  sessionCase('no options', /sessionId|options/, () => undefined),
  sessionCase('null', /sessionId|options/, () => null),
  sessionCase('an empty object', /session id|sessionId/, () => ({})),
  sessionCase('sessionId a number', /session id|sessionId/, (s) => ({ sessionId: 5, storageDir: s.root })),
  sessionCase('storageDir a number', /storageDir/, () => ({ sessionId: 'ok', storageDir: 5 })),
  sessionCase('storageDir empty', /storageDir/, () => ({ sessionId: 'ok', storageDir: '' })),
  sessionCase('storageDir a file', /storageDir|directory/, (s) => ({
    sessionId: 'ok',
    storageDir: path.join(s.outside, 'secret.txt'),
  })),
  sessionCase('storageDir below a file', /storageDir|directory|secret\.txt/, (s) => ({
    sessionId: 'ok',
    storageDir: path.join(s.outside, 'secret.txt', 'sessions'),
  })),
  sessionCase('readConcurrency zero', /readConcurrency/, (s) => ({
    sessionId: 'ok',
    storageDir: s.root,
    readConcurrency: 0,
  })),
  sessionCase('readConcurrency a string', /readConcurrency/, (s) => ({
    sessionId: 'ok',
    storageDir: s.root,
    readConcurrency: '8',
  })),
  sessionCase('readConcurrency NaN', /readConcurrency/, (s) => ({
    sessionId: 'ok',
    storageDir: s.root,
    readConcurrency: Number.NaN,
  })),
  toolCase('no options', /tool|name/, () => undefined),
  toolCase('name a number', /name/, toolWith({ name: 5 })),
  toolCase('name empty', /name/, toolWith({ name: '' })),
  toolCase('name with a space', /name/, toolWith({ name: 'look up' })),
  toolCase('name of 300 characters', /name/, toolWith({ name: 'x'.repeat(300) })),
  toolCase('description a number', /description/, toolWith({ description: 5 })),
  toolCase('inputSchema a string', /inputSchema/, toolWith({ inputSchema: 'object' })),
  toolCase('inputSchema a zod string', /inputSchema|object/, toolWith({ inputSchema: z.string() })),
  toolCase('inputSchema a plain object', /inputSchema/, toolWith({ inputSchema: { id: 'string' } })),
  toolCase('callback a string', /callback/, toolWith({ callback: 'run' })),
  toolCase('callback missing', /callback/, toolWith({ callback: undefined })),
  toolCase('needsApproval a string', /needsApproval/, toolWith({ needsApproval: 'yes' })),
];

/** The number of option cases (seeds cycle through them). */
export const OPTION_CASES = CASES.length;

/** One case: the seed picks the options (cycling). */
export async function optionCase(seed: number): Promise<FuzzCaseReport> {
  const c = CASES[seed % CASES.length]!;
  const s = await sandbox();
  const violations: string[] = [];
  let outcome: FuzzCaseReport['outcome'] = 'accepted';
  let error: string | undefined;
  try {
    const before = await snapshot(s.parent);
    let built: unknown;
    let failure = await attempt(() => {
      built = c.build(s);
    });
    if (failure === undefined) failure = await attempt(() => c.use(built));
    if (failure !== undefined) {
      outcome = 'rejected';
      error = describeError(failure);
      violations.push(
        ...errorProblems(failure, { names: c.names, ...(c.stateTypeError ? { stateTypeError: true } : {}) }),
      );
    }
    violations.push(...outsideChanges(before, await snapshot(s.parent), s.parent, s.root));
    await fs.rm(path.join(s.outside, 'never-written'), { recursive: true, force: true });
  } finally {
    await s.remove();
  }
  return { category: 'options', name: c.name, outcome, ...(error ? { error } : {}), violations };
}
