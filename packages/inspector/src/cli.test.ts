import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './index.js';
import { captureIo } from './test-support/capture-io.js';
import { writeFixtureSessions } from './test-support/fixtures.js';

let dir = '';

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo();
  const code = await runCli(args, io);
  return { code, out: io.out(), err: io.err() };
}

async function snapshot(root: string): Promise<Record<string, number>> {
  const files: Record<string, number> = {};
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else files[p] = (await stat(p)).mtimeMs;
    }
  };
  await walk(root);
  return files;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-inspector-'));
  await writeFixtureSessions(dir);
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('skein sessions', () => {
  it('lists every session newest first with its orchestrators, agents and tokens', async () => {
    const { code, out } = await cli('sessions', dir);
    expect(code).toBe(0);
    const order = ['agent-solo', 'swarm-desk', 'graph-resumed', 'graph-done'].map((id) => out.indexOf(`${id}  `));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(out).toContain('graph support completed  75 tokens');
    expect(out).toContain('swarm desk completed');
    expect(out).not.toContain('\u001b['); // plain when not a TTY
  });

  it('prints JSON for scripts', async () => {
    const list = JSON.parse((await cli('sessions', dir, '--json')).out) as {
      id: string;
      orchestrators: { status: string }[];
    }[];
    expect(list.map((s) => s.id).sort()).toEqual([
      'agent-solo',
      'graph-approved',
      'graph-budget',
      'graph-done',
      'graph-killed',
      'graph-resumed',
      'graph-waiting',
      'swarm-desk',
    ]);
    expect(list.find((s) => s.id === 'graph-done')?.orchestrators[0]?.status).toBe('completed');
  });

  it("hides a server's own sessions and records (ids beginning with skein-) unless --internal", async () => {
    const { out } = await cli('sessions', dir);
    expect(out).not.toContain('skein-');
    const all = (await cli('sessions', dir, '--internal')).out;
    expect(all).toMatch(/^skein-index-0f1e2d3c4b5a69788796 /m);
    expect(all).toMatch(/^graph-done .*\n.*skein-server skein-server/m);
  });

  it("counts a run's tokens as its budget did: the calls before a pause too, the same in sessions and show", async () => {
    // triage (1 call) and refund (a call that asked, and one after the yes): 3 calls of 15 tokens; the
    // refund's stored result holds only the call after the resume (the node results sum to 30).
    const listed = JSON.parse((await cli('sessions', dir, '--json')).out) as { id: string; tokens?: number }[];
    expect(listed.find((s) => s.id === 'graph-budget')?.tokens).toBe(45);
    expect((await cli('show', dir, 'graph-budget')).out).toMatch(
      /graph approvals {2}completed {2}3 node executions {2}45 tokens/,
    );
    const json = JSON.parse((await cli('show', dir, 'graph-budget', '--json')).out) as {
      runs: { totalTokens: number; tokensCounted: string }[];
    };
    expect(json.runs[0]).toMatchObject({ totalTokens: 45, tokensCounted: 'budget' });
    // Without a budget: what the nodes' results hold, and said so.
    const plain = JSON.parse((await cli('show', dir, 'graph-approved', '--json')).out) as typeof json;
    expect(plain.runs[0]).toMatchObject({ totalTokens: 30, tokensCounted: 'results' });
  });

  it('colours on a TTY', async () => {
    const io = captureIo({ tty: true });
    await runCli(['sessions', dir], io);
    expect(io.out()).toContain('\u001b[32mcompleted');
  });
});

/** Step numbers (`#4`) printed on more than one line. */
const duplicateSteps = (out: string): string[] => {
  const seen = [...out.matchAll(/^ {2}(#\d+) /gm)].map((m) => m[1] ?? '');
  return seen.filter((s, i) => seen.indexOf(s) !== i);
};

describe('skein show', () => {
  it('prints a graph run as a timeline: each execution, why it started, tokens', async () => {
    const { code, out } = await cli('show', dir, 'graph-done');
    expect(code).toBe(0);
    expect(out).toMatch(/graph support {2}completed {2}4 node executions {2}75 tokens/);
    expect(out).toMatch(/triage {2}completed .* start: entry point/);
    expect(out).toMatch(
      /billing {2}completed .*30 tokens .*edge from triage: triage -> billing \(condition isBilling held\)/,
    );
    expect(out).toMatch(/summary {2}completed .*join from billing/);
    expect(out).not.toContain('refund  ');
  });

  it('shows a run SIGKILLed in another process: the node the kill cut, the resume, each node once', async () => {
    const { out } = await cli('show', dir, 'graph-killed');
    expect(out).toMatch(/graph support {2}completed/);
    expect(out).toMatch(/billing {2}stopped/);
    expect(out).toMatch(/billing {2}completed .* resume: resumed from the session/);
    expect(out.match(/ triage {2}completed/g)).toHaveLength(1); // triage finished before the kill and never ran again
    expect(duplicateSteps(out)).toEqual([]);
  });

  it('shows a crashed run, its stopped node and the resume', async () => {
    const { out } = await cli('show', dir, 'graph-resumed');
    expect(out).toMatch(/billing {2}stopped/);
    expect(out).toMatch(/billing {2}completed .* resume: resumed from the session/);
    expect(duplicateSteps(out)).toEqual([]);
  });

  it('shows a run waiting for an approval, and one answered and resumed in a new process', async () => {
    expect((await cli('sessions', dir)).out).toMatch(/graph-waiting .*\n.*graph approvals interrupted/);
    const waiting = (await cli('show', dir, 'graph-waiting')).out;
    expect(waiting).toMatch(/graph approvals {2}interrupted {2}2 node executions/);
    expect(waiting).toMatch(/refund {2}interrupted .* edge from triage/);
    expect(waiting).toMatch(/interrupt at refund: asks for approval/);
    expect(waiting).toMatch(/waiting for an answer: asks for approval/);
    const approved = (await cli('show', dir, 'graph-approved')).out;
    expect(approved).toMatch(/graph approvals {2}completed {2}3 node executions/);
    // The resume is the re-opened node's own line, not a second line with the same step.
    expect(approved).toMatch(/interrupt at refund[^\n]*\n[^\n]*refund {2}completed .* resume: answered approval/);
    expect(duplicateSteps(approved)).toEqual([]);
    expect(approved).not.toContain('waiting for an answer');
    expect((await cli('show', dir, 'graph-approved', '--agent', 'approvals.refund')).out).toContain(
      '← success: refunded 80 EUR for order 7',
    );
  });

  it("leaves a server's record out of a conversation's runs, and refuses its own sessions unless --internal", async () => {
    expect((await cli('show', dir, 'graph-done')).out).not.toContain('skein-server');
    expect((await cli('show', dir, 'graph-done', '--internal')).out).toContain('skein-server skein-server');
    const refused = await cli('show', dir, 'skein-index-0f1e2d3c4b5a69788796');
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("is a server's own bookkeeping, not a run (hidden by default); add --internal");
    expect((await cli('show', dir, 'skein-index-0f1e2d3c4b5a69788796', '--internal')).code).toBe(0);
    const html = join(dir, 'done.html');
    expect((await cli('export', dir, 'graph-done', '-o', html)).code).toBe(0);
    expect(await readFile(html, 'utf8')).not.toContain('skein-server');
  });

  it('shows a swarm with its handoff message', async () => {
    const { out } = await cli('show', dir, 'swarm-desk');
    expect(out).toContain('handoff from triage: "Charged twice for order 42"');
    // What billing received after the nested-history filter: one summary message of the three.
    expect(out).toContain('"Charged twice for order 42" (received 1 of 3 messages)');
  });

  it('prints an agent conversation with tool calls folded, or in full', async () => {
    const folded = (await cli('show', dir, 'graph-done', '--agent', 'billing')).out;
    expect(folded).toContain('agent support.billing  4 messages');
    expect(folded).toContain('→ lookup_order({"orderId":"42"})');
    expect(folded).toContain('← success: {"orderId":"42","amount":80,"currency":"EUR"}');
    const full = (await cli('show', dir, 'graph-done', '--agent', 'billing', '--full')).out;
    expect(full).toContain('"orderId": "42"');
  });

  it('prints JSON with the runs', async () => {
    const data = JSON.parse((await cli('show', dir, 'graph-done', '--json')).out) as {
      runs: { executions: { nodeId: string }[] }[];
    };
    expect(data.runs[0]?.executions.map((e) => e.nodeId)).toEqual(['triage', 'billing', 'audit', 'summary']);
  });

  it('shows a corrupt file in place and still renders the rest', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'skein-inspector-corrupt-'));
    await writeFixtureSessions(copy);
    const msg = join(copy, 'session_graph-done', 'agents', 'agent_support.billing', 'messages', 'message_1.json');
    await writeFile(msg, '{"message": {"role": "assist');
    await writeFile(
      join(copy, 'session_graph-done', 'multi_agents', 'multi_agent_support', 'nodes', 'node_audit.json'),
      'not json',
    );
    const { code, out } = await cli('show', copy, 'graph-done');
    expect(code).toBe(0);
    expect(out).toMatch(/! node entries of support: .*node_audit\.json/);
    expect(out).toContain('triage  completed');
    const agent = (await cli('show', copy, 'graph-done', '--agent', 'billing')).out;
    expect(agent).toMatch(/\[1\] ! .*message_1\.json/);
    expect(agent).toContain('[0] user');
    expect(agent).toContain('[3] assistant: The duplicate charge on order 42 is reversed.');
    await rm(copy, { recursive: true, force: true });
  }, 60_000);

  it('never writes to the store', async () => {
    const before = await snapshot(dir);
    await cli('sessions', dir);
    await cli('show', dir, 'graph-resumed');
    await cli('show', dir, 'agent-solo', '--agent', 'default');
    expect(await snapshot(dir)).toEqual(before);
  });
});

describe('skein export', () => {
  it('writes one self-contained HTML file with the data inline', async () => {
    const file = join(dir, '..', `skein-export-${Date.now()}.html`);
    const { code } = await cli('export', dir, 'graph-done', '-o', file);
    expect(code).toBe(0);
    const html = await readFile(file, 'utf8');
    expect(html).not.toMatch(/(src|href)=["']?https?:/);
    expect(html).toContain('id="skein-data"');
    expect(html).toContain('The duplicate charge on order 42 is reversed.');
    await rm(file);
  });

  it('draws every member of a swarm, and the handoffs taken as its edges', async () => {
    const file = join(dir, '..', `skein-export-swarm-${Date.now()}.html`);
    expect((await cli('export', dir, 'swarm-desk', '-o', file)).code).toBe(0);
    const json =
      /<script type="application\/json" id="skein-data">([\s\S]*?)<\/script>/.exec(await readFile(file, 'utf8'))?.[1] ??
      '';
    const data = JSON.parse(json) as {
      runs: { run: { shape: { nodes: string[]; edges: { from: string; to: string }[] } } }[];
    };
    const shape = data.runs[0]?.run.shape;
    expect(shape?.nodes).toEqual(['triage', 'billing', 'refund']); // refund never ran
    expect(shape?.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['triage->billing']);
    await rm(file);
  });
});

describe('usage', () => {
  it('exits 2 with the usage on a bad command or a missing argument', async () => {
    expect((await cli('nope')).code).toBe(2);
    const missing = await cli('show', dir);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('Missing the session id');
    const agent = await cli('show', dir, 'graph-done', '--agent', 'ghost');
    expect(agent.err).toContain('has no agent "ghost" (agents: support.audit');
  });

  it('prints a graph module as Mermaid', async () => {
    const mod = join(dir, '..', `skein-graph-${Date.now()}.mjs`);
    await writeFile(mod, `export const graph = { toMermaid: () => 'graph TD\\n  a --> b' };\n`);
    const { code, out } = await cli('graph', mod);
    expect(code).toBe(0);
    expect(out).toBe('graph TD\n  a --> b\n');
    expect((await cli('graph', mod, 'missing')).err).toContain('has no export "missing"');
    await rm(mod);
  });

  it("prints a real Graph's and Swarm's Mermaid from a module", async () => {
    const mod = fileURLToPath(new URL('./test-support/drawable-shapes.ts', import.meta.url));
    const graph = await cli('graph', mod, 'graph');
    expect(graph.code).toBe(0);
    expect(graph.out).toContain('flowchart TD');
    expect(graph.out).toMatch(/n1 & n2 -->\|join\| n3/);
    const swarm = await cli('graph', mod, 'swarm');
    // triage declares its handoff to billing; billing declares none, so it is offered one to every other member.
    expect(swarm.out).toBe(
      [
        'flowchart LR',
        '  n0["triage"]',
        '  n1["billing"]',
        '  n0 -->|transfer_to_billing| n1',
        '  n1 -->|transfer_to_triage| n0',
        '  classDef entry stroke-width:3px',
        '  class n0 entry',
        '',
      ].join('\n'),
    );
  });
});

describe('a store written by Strands Agents (Python)', () => {
  it('lists and shows its graph as far as it is understood', async () => {
    const { writeStrandsGraphSession } = await import('./test-support/strands-fixture.js');
    const strands = await mkdtemp(join(tmpdir(), 'skein-inspector-strands-'));
    await writeStrandsGraphSession(strands);
    expect((await cli('sessions', strands)).out).toContain('graph research completed');
    const show = (await cli('show', strands, 'strands-graph')).out;
    expect(show).toContain('task: Is coffee good for you?');
    expect(show).toMatch(/research {2}completed {2}1\.20 s {2}20 tokens/);
    expect(show).toMatch(/analysis {2}completed {2}800 ms {2}20 tokens/);
    expect((await cli('show', strands, 'strands-graph', '--agent', 'research')).out).toContain(
      '[1] assistant: Three sources found.',
    );
    await rm(strands, { recursive: true, force: true });
  });
});
