import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSession, openStore, runCli, type CliIo } from '@skein/inspector';
import { AnthropicTestServer, errorBody } from '@skein/model-anthropic/testing';
import type { BedrockWireServer } from '@skein/model-bedrock/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refundsMade, replies, runDesk, storedTransitions, writeScript } from './test-support/desk-run.js';
import { deskBedrockServer } from './test-support/desk-wire-models.js';

// The desk on `--model anthropic,bedrock` with Anthropic overloaded: every call to the loopback
// Anthropic server answers 529, and the desk finishes on Bedrock (its loopback server answers as the
// scripted desk would), through the real SDKs, with the approval, the budget and the history intact.

let dir = '';
let anthropic: AnthropicTestServer;
let bedrock: BedrockWireServer;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-desk-fallback-'));
  anthropic = await AnthropicTestServer.start({ loop: true });
  anthropic.enqueue({ status: 529, body: errorBody('overloaded_error', 'Overloaded') });
  bedrock = await deskBedrockServer();
});
afterEach(async () => {
  await Promise.all([anthropic.close(), bedrock.close()]);
  await rm(dir, { recursive: true, force: true });
});

const env = (): Record<string, string> => ({
  ANTHROPIC_API_KEY: 'dummy',
  ANTHROPIC_BASE_URL: anthropic.url,
  AWS_ACCESS_KEY_ID: 'AKIDTEST',
  AWS_SECRET_ACCESS_KEY: 'secret',
  AWS_REGION: 'us-east-1',
  AWS_ENDPOINT_URL_BEDROCK_RUNTIME: bedrock.endpoint,
});

/** `skein show` of a stored session, as text. */
async function show(spec: string, sessionId: string): Promise<string> {
  let out = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (out += s), isTTY: false },
    stderr: { write: (s: string) => (out += s) },
    env: {},
    cwd: dir,
  };
  expect(await runCli(['show', spec, sessionId], io)).toBe(0);
  return out;
}

const APPROVED_REFUND_PATH = [
  '>triage:start',
  'triage>refund:edge',
  'triage>notes:edge',
  'refund>:interrupt',
  '>refund:resume',
  '*>summary:join',
  'summary>:complete',
];

describe('the desk on --model anthropic,bedrock while Anthropic answers 529', () => {
  it('finishes on Bedrock with the approval, budget and history intact; the inspector names the model of each step', async () => {
    const script = await writeScript(dir, ['Please refund order 108, 60 EUR']);
    const args = ['--shape', 'graph', '--dir', dir, '--script', script, '--model', 'anthropic,bedrock'];
    const asked = await runDesk(args, { env: env() });
    expect(asked.stdout).toMatch(/\[model\] fallback chain Anthropic \S+ -> Amazon Bedrock (\S+) \(--model\)/);
    expect(asked.stdout).toMatch(/\[desk\] waiting for approval \(.+#approval\); it is stored/);
    expect(await refundsMade(dir)).toEqual([]);
    // The budget counted every attempt: the failed Anthropic requests and the Bedrock answers.
    const spend = /\[budget\] turn: (\d+) tokens in (\d+) model calls/.exec(asked.stdout);
    expect(Number(spend?.[1])).toBeGreaterThan(0);
    // (The triage's injection judge calls the same models on a budget of its own: not the turn's.)
    const forTurn = (requests: readonly unknown[]): number =>
      requests.filter((r) => !JSON.stringify(r).includes('You are a guardrail.')).length;
    expect(Number(spend?.[2])).toBe(forTurn(anthropic.requests) + forTurn(bedrock.requests));
    // Anthropic was tried until its circuit breaker opened (3 failures in the process), then skipped.
    expect(forTurn(anthropic.requests)).toBe(3);

    const approved = await runDesk([...args, '--resume', '--yes'], { env: env() });
    expect(approved.stdout).toMatch(/\[approval\] \S*refund asks to issue_refund \{"orderId":"108","amountEur":60/);
    expect(replies(approved.stdout)).toEqual([expect.stringMatching(/^I refunded 60 EUR for order 108;/)]);
    expect(await refundsMade(dir)).toEqual([{ orderId: '108', amountEur: 60 }]);
    expect(await storedTransitions(dir, 'customer-1-graph', 'desk-graph')).toEqual(APPROVED_REFUND_PATH);

    expect(forTurn(anthropic.requests)).toBeLessThanOrEqual(6); // the resuming process has a breaker of its own

    // The refund agent's history: every tool use with its result, the refund paid once.
    const store = openStore(`sqlite:${join(dir, 'desk.db')}`);
    const session = await loadSession(store, 'customer-1-graph', { messages: 'all' }).finally(() => store.close());
    const refundAgent = session.agents.find((a) => a.id.includes('refund'));
    const history = (refundAgent?.messages ?? []).flatMap((m) => m.message?.content ?? []);
    const uses = history.filter((b) => 'toolUse' in b).length;
    expect(uses).toBe(2); // lookup_order, issue_refund
    expect(history.filter((b) => 'toolResult' in b).length).toBe(uses);

    const bedrockId = /-> Amazon Bedrock (\S+) \(--model\)/.exec(asked.stdout)?.[1] ?? '?';
    const shown = await show(`sqlite:${join(dir, 'desk.db')}`, 'customer-1-graph');
    for (const node of ['triage', 'refund', 'summary'])
      expect(shown.split('\n').find((l) => l.includes(`  ${node}  `))).toContain(`by ${bedrockId}`);
  });
});
