import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PostgresServer } from '@skein/session-postgres/testing';
import type { RgwServer } from '@skein/session-s3/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postgresServer, restateServer, rgwServer } from '../../../test/servers/index.js';
import {
  readTransitions,
  refundsMade,
  replies,
  runDesk,
  startDesk,
  storedConversation,
  storedTransitions,
  writeScript,
  type TestStore,
} from './test-support/desk-run.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-desk-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const CONVERSATION = ['Please refund order 7', 'thanks!', 'I was charged twice for order 42'];
const ANSWERS = [
  /^I refunded 12 EUR for order 7;/,
  /^I can help with charges, invoices and refunds/,
  /^I reversed the duplicate charge on invoice INV-42; you are now charged 80 EUR once\./,
];

/** The path each shape stores for a message (one run per message: the session holds the last run's transitions). */
const BILLING_PATH = {
  graph: ['>triage:start', 'triage>billing:edge', 'triage>notes:edge', '*>summary:join', 'summary>:complete'],
  swarm: ['>triage:start', 'triage>billing:handoff', 'billing>:complete'],
};
const APPROVED_REFUND_PATH = {
  graph: [
    '>triage:start',
    'triage>refund:edge',
    'triage>notes:edge',
    'refund>:interrupt',
    '>refund:resume',
    '*>summary:join',
    'summary>:complete',
  ],
  swarm: ['>triage:start', 'triage>refund:handoff', 'refund>:interrupt', '>refund:resume', 'refund>:complete'],
};
const ID = { graph: 'desk-graph', swarm: 'desk-swarm' } as const;

describe.each(['graph', 'swarm', 'agent'] as const)('the desk as %s', (shape) => {
  it('routes billing and refund messages, uses the tools, answers', async () => {
    const script = await writeScript(dir, CONVERSATION);
    const run = await runDesk(['--shape', shape, '--dir', dir, '--script', script]);
    expect(run.stdout).toContain('[model] scripted models');
    const answers = replies(run.stdout);
    expect(answers).toHaveLength(3);
    answers.forEach((answer, i) => expect(answer).toMatch(ANSWERS[i] as RegExp));
    expect(await refundsMade(dir)).toEqual([{ orderId: '7', amountEur: 12 }]);
    const session = `customer-1-${shape}`;
    if (shape === 'agent') {
      // The conversation as stored: every customer line once, each tool call with its result, the last answer.
      const stored = await storedConversation(dir, session, 'default');
      expect(stored.filter((l) => l.includes('toolUse')).length).toBe(
        stored.filter((l) => l.includes('toolResult')).length,
      );
      expect(stored.at(-1)).toMatch(/^assistant: I reversed the duplicate charge on invoice INV-42/);
      expect(stored.filter((l) => l.startsWith('user: ') && !l.includes('toolResult'))).toEqual(
        CONVERSATION.map((line) => `user: ${line}`),
      );
    } else {
      expect(await storedTransitions(dir, session, ID[shape])).toEqual(BILLING_PATH[shape]);
    }
    if (shape === 'swarm') {
      // triage shared the order id with billing (the swarm's shared context), and left a message.
      const [handoff] = (await readTransitions(dir, session, ID.swarm)).filter((t) => t.kind === 'handoff');
      expect(handoff?.details).toMatchObject({
        sharedContextKeys: { triage: ['orderId'] },
        message: expect.stringContaining('order 42'),
      });
    }
  });

  it('finishes a message after a crash mid-tool, without paying twice', async () => {
    const script = await writeScript(dir, ['Please refund order 108, 60 EUR']);
    const killed = await runDesk(['--shape', shape, '--dir', dir, '--script', script], {
      killWhen: /tool issue_refund|tool refund/,
      env: { DESK_TOOL_DELAY_MS: '300', DESK_APPROVAL_OVER_EUR: '1000' },
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(replies(killed.stdout)).toEqual([]);
    const resumed = await runDesk(['--shape', shape, '--dir', dir, '--script', script, '--resume'], {
      env: { DESK_APPROVAL_OVER_EUR: '1000' },
    });
    expect(resumed.stdout).toContain('[desk] resuming: Please refund order 108, 60 EUR');
    expect(replies(resumed.stdout)).toEqual([expect.stringMatching(/^I refunded 60 EUR for order 108;/)]);
    expect(await refundsMade(dir)).toEqual([{ orderId: '108', amountEur: 60 }]);
    if (shape !== 'agent') {
      const stored = await storedTransitions(dir, `customer-1-${shape}`, ID[shape]);
      expect(stored[0]).toBe('>triage:start');
      expect(stored).toContain('>refund:resume'); // resumed at the node the kill cut
      expect(stored.at(-1)).toBe(shape === 'graph' ? 'summary>:complete' : 'refund>:complete');
      expect(new Set(stored).size).toBe(stored.length); // nothing doubled
    }
  });

  it('a refund cut after it was paid (SIGKILL) runs again on resume with the same idempotency key: paid once', async () => {
    const script = await writeScript(dir, ['Please refund order 108, 60 EUR']);
    const killed = await runDesk(['--shape', shape, '--dir', dir, '--script', script], {
      // The refund tool waits 400 ms after paying: the kill lands between the payment and its result.
      killOnceTrue: async () => (await refundsMade(dir)).length > 0,
      env: { DESK_TOOL_DELAY_MS: '400', DESK_APPROVAL_OVER_EUR: '1000' },
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(replies(killed.stdout)).toEqual([]);
    const resumed = await runDesk(['--shape', shape, '--dir', dir, '--script', script, '--resume'], {
      env: { DESK_APPROVAL_OVER_EUR: '1000' },
    });
    expect(resumed.stdout).toMatch(/tool issue_refund|tool refund/); // the cut call ran again
    expect(replies(resumed.stdout)).toEqual([expect.stringMatching(/^I refunded 60 EUR for order 108;/)]);
    expect(await refundsMade(dir)).toEqual([{ orderId: '108', amountEur: 60 }]);
  });

  it('stops at the refund approval, stores it, and pays once after a yes given in a later process', async () => {
    const script = await writeScript(dir, ['Please refund order 108, 60 EUR']);
    const asked = await runDesk(['--shape', shape, '--dir', dir, '--script', script]);
    expect(asked.stdout).toMatch(/\[desk\] waiting for approval \(.+#approval\); it is stored/);
    expect(replies(asked.stdout)).toEqual([]);
    expect(await refundsMade(dir)).toEqual([]);
    const approved = await runDesk(['--shape', shape, '--dir', dir, '--script', script, '--resume', '--yes']);
    expect(approved.stdout).toMatch(/\[approval\] \S*refund asks to issue_refund \{"orderId":"108","amountEur":60/);
    expect(replies(approved.stdout)).toEqual([expect.stringMatching(/^I refunded 60 EUR for order 108;/)]);
    expect(await refundsMade(dir)).toEqual([{ orderId: '108', amountEur: 60 }]);
    if (shape !== 'agent')
      expect(await storedTransitions(dir, `customer-1-${shape}`, ID[shape])).toEqual(APPROVED_REFUND_PATH[shape]);
  });

  it('tells the customer when the refund is denied, and pays nothing', async () => {
    const script = await writeScript(dir, ['Please refund order 108, 60 EUR']);
    const denied = await runDesk(['--shape', shape, '--dir', dir, '--script', script, '--no']);
    expect(replies(denied.stdout)).toEqual([
      expect.stringMatching(/The refund was not made: our team did not approve it \(denied by the operator\)\./),
    ]);
    expect(await refundsMade(dir)).toEqual([]);
    // The denial is an answer like a yes: the run paused, resumed with it, and the refund node told the customer.
    if (shape !== 'agent')
      expect(await storedTransitions(dir, `customer-1-${shape}`, ID[shape])).toEqual(APPROVED_REFUND_PATH[shape]);
  });
});

describe('the desk on each store (--store sqlite is the default above)', () => {
  let postgres: PostgresServer | undefined;
  let rgw: RgwServer | undefined;
  afterAll(async () => {
    await postgres?.stop();
    await rgw?.stop();
  }, 120_000);

  const stores: [string, () => Promise<{ args: string[]; store: TestStore }>][] = [
    ['file', async () => ({ args: ['--store', 'file'], store: { kind: 'file' } })],
    [
      'postgres',
      async () => {
        postgres ??= await postgresServer();
        const connectionString = await postgres.createDatabase('desk');
        return {
          args: ['--store', 'postgres', '--postgres', connectionString],
          store: { kind: 'postgres', connectionString },
        };
      },
    ],
    [
      's3',
      async () => {
        rgw ??= await rgwServer();
        const bucket = await rgw.createBucket('desk');
        const store: TestStore = { kind: 's3', bucket, prefix: 'desk', clientConfig: rgw.clientConfig() };
        return { args: ['--store', 's3', '--s3', `s3://${bucket}/desk`], store };
      },
    ],
  ];

  it.each(stores)(
    '%s: routes, answers and stores the graph run there',
    async (_name, setup) => {
      const { args, store } = await setup();
      const env =
        store.kind === 's3'
          ? {
              DESK_MODEL: 'scripted', // AWS credentials for S3 would otherwise pick Bedrock
              AWS_ENDPOINT_URL_S3: rgw!.endpoint,
              AWS_REGION: rgw!.region,
              AWS_ACCESS_KEY_ID: rgw!.credentials.accessKeyId,
              AWS_SECRET_ACCESS_KEY: rgw!.credentials.secretAccessKey,
              AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
              AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
            }
          : {};
      const script = await writeScript(dir, CONVERSATION);
      const run = await runDesk(['--shape', 'graph', '--dir', dir, '--script', script, ...args], { env });
      replies(run.stdout).forEach((answer, i) => expect(answer).toMatch(ANSWERS[i] as RegExp));
      expect(replies(run.stdout)).toHaveLength(3);
      expect(await storedTransitions(dir, 'customer-1-graph', ID.graph, store)).toEqual(BILLING_PATH.graph);
    },
    600_000,
  );
});

describe.each(['agent', 'graph', 'swarm'] as const)('two desk processes on one conversation (%s)', (shape) => {
  const RELOADED =
    '[desk] another process answered in this conversation since this one loaded it; reloading the conversation.';

  it('never interleave: a desk whose view is stale says another process answered, reloads, and answers', async () => {
    const args = ['--shape', shape, '--dir', dir, '--session', 'shared'];
    const [one, two] = await Promise.all([startDesk(args), startDesk(args)]);
    const turns: string[] = [];
    turns.push(await one.say('Please refund order 7')); // one loads the empty conversation and answers
    turns.push(await two.say('thanks!')); // two loads now (after one gave the conversation up): it is current
    turns.push(await one.say('I was charged twice for order 42')); // two answered since one loaded
    turns.push(await two.say('I was charged twice for order 42')); // one answered since two loaded
    expect(turns.map((t) => t.includes(RELOADED))).toEqual([false, false, true, true]);
    expect(turns.map((t) => replies(t))).toEqual([
      [expect.stringMatching(/^I refunded 12 EUR for order 7;/)],
      [expect.stringMatching(/^I can help with charges, invoices and refunds/)],
      [expect.stringMatching(/^I reversed the duplicate charge on invoice INV-42/)],
      [expect.stringMatching(/^Invoice INV-42 shows one charge of 80 EUR/)], // two sees what one did
    ]);
    for (const run of await Promise.all([one.quit(), two.quit()])) expect(run.code).toBe(0);
    expect(await refundsMade(dir)).toEqual([{ orderId: '7', amountEur: 12 }]);
    if (shape === 'agent') {
      // One conversation, every turn whole and in the order it was answered.
      const stored = await storedConversation(dir, 'shared-agent', 'default');
      expect(stored.filter((l) => l.startsWith('user: ') && !l.includes('toolResult'))).toEqual([
        'user: Please refund order 7',
        'user: thanks!',
        'user: I was charged twice for order 42',
        'user: I was charged twice for order 42',
      ]);
      expect(stored.at(-1)).toMatch(/^assistant: Invoice INV-42 shows one charge of 80 EUR/);
      expect(stored.filter((l) => l.includes('toolUse')).length).toBe(
        stored.filter((l) => l.includes('toolResult')).length,
      );
    } else {
      expect(await storedTransitions(dir, `shared-${shape}`, ID[shape])).toEqual(BILLING_PATH[shape]);
    }
  }, 120_000);
});

describe('the desk on Restate (npm run desk:restate)', () => {
  // restate-server from the npm registry (the @skein/restate tests install it into a cache), the desk
  // graph as a workflow and the one-agent desk as a virtual object, messages through the ingress. The
  // server is the run's shared one (the desk's services, deskGraph, deskSwarm and deskAgent, are its alone).
  let restate: Record<string, string> = {};
  beforeAll(async () => {
    const server = await restateServer();
    restate = { SKEIN_RESTATE_INGRESS_URL: server.ingressUrl, SKEIN_RESTATE_ADMIN_URL: server.adminUrl };
  }, 240_000);
  it('routes billing, waits inside Restate for the refund approval, and each desk pays once', async () => {
    const script = await writeScript(dir, ['I was charged twice for order 42', 'Please refund order 108, 60 EUR']);
    const run = await runDesk(['--dir', dir, '--script', script], { entry: 'restate', env: restate });
    const graphReplies = [...run.stdout.matchAll(/^desk \(graph\)> (.*)$/gm)].map((m) => m[1]);
    const agentReplies = [...run.stdout.matchAll(/^desk \(agent\)> (.*)$/gm)].map((m) => m[1]);
    expect(graphReplies).toEqual([
      expect.stringMatching(/^I reversed the duplicate charge on invoice INV-42/),
      expect.stringMatching(/^I refunded 60 EUR for order 108;/),
    ]);
    const swarmReplies = [...run.stdout.matchAll(/^desk \(swarm\)> (.*)$/gm)].map((m) => m[1]);
    // The swarm and the one-agent desk handle each message after the graph, on the same shop data: the duplicate is already reversed.
    expect(swarmReplies).toEqual([
      expect.stringMatching(/^Invoice INV-42 shows one charge of 80 EUR/),
      expect.stringMatching(/^I refunded 60 EUR for order 108;/),
    ]);
    expect(agentReplies).toEqual([
      expect.stringMatching(/^Invoice INV-42 shows one charge of 80 EUR, so there is no duplicate to reverse/),
      expect.stringMatching(/^I refunded 60 EUR for order 108;/),
    ]);
    // The graph run paused at refund (refund->) and resumed there (->refund) with the approval.
    expect(run.stdout).toContain(
      '[graph completed] ->triage triage->refund triage->notes refund-> ->refund refund->summary summary->',
    );
    expect(run.stdout).toContain('[swarm completed] ->triage triage->refund refund-> ->refund refund->');
    expect(run.stdout.match(/\[approval\] \S*refund asks to issue_refund/g)).toHaveLength(3);
    // Each of the three desks pays the refund it was asked for once (the shop deduplicates by the tool
    // call's idempotency key, which a resume after the approval keeps; a new desk's call is a new key).
    expect(await refundsMade(dir)).toEqual(Array.from({ length: 3 }, () => ({ orderId: '108', amountEur: 60 })));
  }, 180_000);

  it('tells the customer when the approval is denied (--no)', async () => {
    const script = await writeScript(dir, ['Please refund order 108, 60 EUR']);
    const run = await runDesk(['--dir', dir, '--script', script, '--no'], { entry: 'restate', env: restate });
    expect(run.stdout).toMatch(
      /^desk \(graph\)> The refund was not made: our team did not approve it \(denied by the operator\)/m,
    );
    expect(await refundsMade(dir)).toEqual([]);
  }, 180_000);
});
