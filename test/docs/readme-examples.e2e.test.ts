import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicTestServer, answerEvents } from '@skein/model-anthropic/testing';
import { chatChunks, OpenAITestServer } from '@skein/model-openai/testing';
import type { RgwServer } from '@skein/session-s3/testing';
import type { PostgresServer } from '@skein/session-postgres/testing';
import { postgresServer, restateServer, rgwServer } from '../servers/index.js';
import { CreateBucketCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { BedrockWireServer, textFrames, toolUseFrames } from '@skein/model-bedrock/testing';
import { writeFixtureSessions } from '../../packages/inspector/src/test-support/fixtures.js';
import { smallestExample } from './readme-example.js';

// Every README's smallest example (its first ```ts block) is type-checked as written and run, so the
// docs cannot drift from the code. An example defines everything it uses (a ScriptedModel from
// @skein/core/testing where no credentials are needed); provider examples reach loopback servers
// through the SDKs' own environment variables. readme-structure.test.ts checks install lines and the
// Errors sections.

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const outDir = join(root, 'test/docs/.generated');
const tsxLoader = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;

interface Example {
  /** README path from the repository root. */
  readme: string;
  /** Prepares a run: servers' replies, env and working directory. */
  setup?: () => Promise<{ env?: Record<string, string>; cwd?: string }>;
  /** What the run prints. */
  prints: RegExp;
  /** Checks what the run left behind (objects it stored). */
  check?: () => Promise<void>;
  /** Why the example is only type-checked. */
  typeCheckOnly?: string;
}

let anthropic: AnthropicTestServer;
let rgw: RgwServer | undefined;
let postgres: PostgresServer | undefined;
let openai: OpenAITestServer;
let bedrock: BedrockWireServer;
let work = '';
const bedrockEnv = (): Record<string, string> => ({
  AWS_ENDPOINT_URL_BEDROCK_RUNTIME: bedrock.endpoint,
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'AKIDTEST',
  AWS_SECRET_ACCESS_KEY: 'secret',
});
const anthropicEnv = (): Record<string, string> => ({
  ANTHROPIC_BASE_URL: anthropic.url,
  ANTHROPIC_API_KEY: 'test-key',
});

const examples: Example[] = [
  {
    readme: 'README.md',
    setup: async () => {
      bedrock.reply({
        frames: [
          { event: 'messageStart', body: { role: 'assistant' } },
          ...toolUseFrames(0, 't1', 'weather', ['{"city":', '"Kobe"}']),
          { event: 'messageStop', body: { stopReason: 'tool_use' } },
        ],
      });
      bedrock.reply({ frames: textFrames(['It is sunny ', 'in Kobe.']) });
      return { env: bedrockEnv() };
    },
    prints: /It is sunny in Kobe\./,
  },
  {
    readme: 'packages/a2a/README.md',
    prints:
      /^card: http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-card\.json\nYes: the duplicate charge on INV-42 is being reversed\.$/,
  },
  {
    readme: 'packages/core/README.md',
    setup: async () => {
      bedrock.reply({
        frames: [
          { event: 'messageStart', body: { role: 'assistant' } },
          ...toolUseFrames(0, 't1', 'calculator', ['{"a":25,', '"b":48}']),
          { event: 'messageStop', body: { stopReason: 'tool_use' } },
        ],
      });
      bedrock.reply({ frames: textFrames(['25 * 48 = 1200']) });
      return { env: bedrockEnv() };
    },
    prints: /25 \* 48 = 1200/,
  },
  { readme: 'packages/graph/README.md', prints: /completed \[ 'triage', 'billing' \]/ },
  {
    readme: 'packages/evals/README.md',
    prints: /^evaluation eval: 1 cases, 1 runs: all passed\n[^]*trajectory +mean 1\.00/,
  },
  {
    readme: 'packages/guardrails/README.md',
    prints: /^Your card \[card\] is on file\.\ninjection blocked the input: prompt injection$/,
  },
  {
    readme: 'packages/handoffs/README.md',
    prints: /transfer to Refund agent \{ orderId: '42' \}/,
  },
  {
    readme: 'packages/inspector/README.md',
    setup: async () => {
      const cwd = await mkdtemp(join(work, 'inspector-'));
      await writeFixtureSessions(join(cwd, 'sessions'));
      return { cwd };
    },
    prints: /bytes of HTML/,
  },
  {
    readme: 'packages/studio/README.md',
    setup: async () => ({ cwd: await mkdtemp(join(work, 'studio-')) }),
    prints: /^open http:\/\/127\.0\.0\.1:\d+\/#\/graphs\/desk\ncompleted$/,
  },
  {
    readme: 'packages/memory/README.md',
    setup: async () => ({ cwd: await mkdtemp(join(work, 'memory-')) }),
    prints: /^Yes: the double charge on order 42 was refunded\.$/,
  },
  {
    readme: 'packages/mcp/README.md',
    setup: async () => {
      await mkdir('/tmp/notes', { recursive: true });
      anthropic.enqueue({ events: answerEvents({ blocks: [{ text: ['No notes mention ', 'the launch yet.'] }] }) });
      return { env: anthropicEnv() };
    },
    prints: /No notes mention the launch yet\./,
  },
  {
    readme: 'packages/otel/README.md',
    prints: /Your order ships today\.\n\[ 'chat scripted', 'invoke_agent support' \]/,
  },
  {
    readme: 'packages/model-anthropic/README.md',
    setup: async () => {
      anthropic.enqueue({
        events: answerEvents({
          blocks: [{ toolUse: { id: 'toolu_1', name: 'weather', inputChunks: ['{"city":', '"Lisbon"}'] } }],
        }),
      });
      anthropic.enqueue({ events: answerEvents({ blocks: [{ text: ['It is 21 °C ', 'in Lisbon.'] }] }) });
      return { env: anthropicEnv() };
    },
    prints: /It is 21 °C in Lisbon\./,
  },
  {
    readme: 'packages/model-bedrock/README.md',
    setup: async () => {
      bedrock.reply({ frames: textFrames(['Paris: 21 °C.']) });
      return { env: bedrockEnv() };
    },
    prints: /Paris: 21 °C\./,
  },
  {
    readme: 'packages/model-openai/README.md',
    setup: async () => {
      openai.enqueue({
        chunks: chatChunks({ toolCalls: [{ id: 'call_1', name: 'weather', args: ['{"city":', '"Lisbon"}'] }] }),
      });
      openai.enqueue({ chunks: chatChunks({ text: ['It is 21 °C ', 'in Lisbon.'] }) });
      return { env: { OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: 'test-key' } };
    },
    prints: /It is 21 °C in Lisbon\./,
  },
  {
    readme: 'packages/session-file/README.md',
    setup: async () => ({ cwd: await mkdtemp(join(work, 'session-file-')) }),
    prints: /^4 Horse racing\.$/,
  },
  {
    // Against the radosgw the S3 tests use: AWS_ENDPOINT_URL_S3 at an IP address makes the SDK use
    // path-style URLs, so the README's bucket and options work as written.
    readme: 'packages/session-s3/README.md',
    setup: async () => {
      rgw ??= await rgwServer();
      await rgw.client().send(new CreateBucketCommand({ Bucket: 'my-agent-sessions' }));
      const { accessKeyId, secretAccessKey } = rgw.credentials;
      return {
        env: {
          AWS_ENDPOINT_URL_S3: rgw.endpoint,
          AWS_ACCESS_KEY_ID: accessKeyId,
          AWS_SECRET_ACCESS_KEY: secretAccessKey,
          AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
          AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
        },
      };
    },
    prints: /^$/,
    check: async () => {
      const listed = await rgw!.client().send(new ListObjectsV2Command({ Bucket: 'my-agent-sessions' }));
      // close() gives the lease up by replacing it with a released one (kept, so that a writer whose
      // view predates it can tell another writer was here).
      expect((listed.Contents ?? []).map((o) => o.Key).sort()).toEqual([
        'test/session_user-123/.skein-lease.json',
        'test/session_user-123/agents/agent_default/agent.json',
        'test/session_user-123/agents/agent_default/messages/message_0.json',
        'test/session_user-123/agents/agent_default/messages/message_1.json',
        'test/session_user-123/session.json',
      ]);
    },
  },
  {
    readme: 'packages/session-sqlite/README.md',
    setup: async () => ({ cwd: await mkdtemp(join(work, 'session-sqlite-')) }),
    prints: /^4$/,
  },
  {
    readme: 'packages/session-postgres/README.md',
    setup: async () => {
      postgres ??= await postgresServer();
      return { env: { DATABASE_URL: await postgres.createDatabase('readme') } };
    },
    prints: /^4$/,
  },
  {
    readme: 'packages/restate/README.md',
    prints: /^$/,
    typeCheckOnly:
      "it serves until stopped: the test below runs it against the run's restate-server and waits for the reply its call prints",
  },
  {
    readme: 'packages/server/README.md',
    prints: /^$/,
    typeCheckOnly: 'it serves until stopped: the test below starts it, sends a message and stops it with SIGTERM',
  },
  {
    readme: 'packages/swarm/README.md',
    prints: /completed \[ 'Triage agent', 'Billing agent' \] I refunded the duplicate charge on order 42\./,
  },
];

const fileOf = (readme: string): string =>
  join(outDir, `${readme.replace(/\/README\.md$|README\.md$/, '').replace(/\//g, '-') || 'root'}.ts`);

beforeAll(async () => {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  work = await mkdtemp(join(tmpdir(), 'skein-readme-'));
  for (const example of examples)
    await writeFile(fileOf(example.readme), await smallestExample(join(root, example.readme)));
  anthropic = await AnthropicTestServer.start();
  openai = await OpenAITestServer.start();
  bedrock = await new BedrockWireServer().start();
});

afterAll(async () => {
  await anthropic?.close();
  await openai?.close();
  await bedrock?.close();
  await rgw?.stop();
  await postgres?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('README smallest examples', () => {
  it('cover every package', async () => {
    const covered = new Set(examples.map((e) => e.readme));
    const missing: string[] = [];
    for (const dir of await readdir(join(root, 'packages'))) {
      const manifest = JSON.parse(await readFile(join(root, 'packages', dir, 'package.json'), 'utf8')) as {
        private?: boolean;
      };
      if (!manifest.private && !covered.has(`packages/${dir}/README.md`)) missing.push(dir);
    }
    expect(missing, 'published packages whose README example is not run here').toEqual([]);
  });

  it('type-check as written', async () => {
    const tsconfig = join(outDir, 'tsconfig.json');
    const compilerOptions = {
      noEmit: true,
      customConditions: ['@skein/source'],
      noUnusedLocals: false,
      noUnusedParameters: false,
    };
    await writeFile(
      tsconfig,
      JSON.stringify({ extends: '../../../tsconfig.base.json', compilerOptions, include: ['*.ts'] }),
    );
    const checked = run(join(root, 'node_modules/.bin/tsc'), ['-p', tsconfig], { cwd: root });
    await expect(
      checked.catch((e: { stdout?: string }) => Promise.reject(new Error(e.stdout ?? String(e)))),
    ).resolves.toBeDefined();
  }, 120_000);

  it.each(examples.filter((e) => !e.typeCheckOnly).map((e) => [e.readme, e] as const))(
    '%s runs',
    async (_name, example) => {
      const { env = {}, cwd = work } = (await example.setup?.()) ?? {};
      const { stdout } = await run(
        process.execPath,
        ['--conditions=@skein/source', '--import', tsxLoader, fileOf(example.readme)],
        {
          cwd,
          env: { ...process.env, ...env },
          timeout: 60_000,
        },
      );
      expect(stdout.trim()).toMatch(example.prints);
      await example.check?.();
    },
    180_000,
  );
});

/**
 * Listens on a fixed port (the README's), waiting while something else holds it: another run of this
 * test on the same machine holds 9070, 8080 and 9080 for a few seconds. Fails clearly after 2 minutes.
 */
async function listenWhenFree(server: net.Server, port: number): Promise<net.Server> {
  for (let waited = 0; ; waited += 500) {
    const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      const failed = (e: NodeJS.ErrnoException): void => {
        server.off('listening', listening);
        resolve(e);
      };
      const listening = (): void => {
        server.off('error', failed);
        resolve(undefined);
      };
      server.once('error', failed).once('listening', listening).listen(port);
    });
    if (!error) return server;
    if (error.code !== 'EADDRINUSE' || waited >= 120_000)
      throw new Error(`Port ${port}, which the @skein/restate README example uses, stayed taken: ${error.message}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
describe('the @skein/server README example', () => {
  it('serves on PORT, answers a message, stores it under ./sessions, and exits 0 on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      ['--conditions=@skein/source', '--import', tsxLoader, fileOf('packages/server/README.md')],
      { cwd: work, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        child.stderr?.on('data', (d: Buffer) => {
          err += d.toString();
          const found = /listening on (http:\/\/\S+)/.exec(err);
          if (found?.[1]) resolve(found[1]);
        });
        void exited.then(() => reject(new Error(`the example exited: ${err}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${url}/v1/agents/support/conversations/c1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Hi' }),
      });
      expect(await res.json()).toMatchObject({
        conversationId: 'c1',
        turn: 1,
        status: 'completed',
        text: 'Hello! How can I help?',
      });
      expect(await readdir(join(work, 'sessions'))).toContain('session_c1');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);
});

describe('the @skein/restate README example', () => {
  // It serves its worker on 9080, registers it with the admin API on localhost:9070 and sends a message
  // through the ingress on localhost:8080, as against a local `npx restate-server`: proxies on 9070 and
  // 8080 forward to the run's restate-server (random ports). Its service names (support, desk) are
  // used by no other test file.
  it('serves, registers itself, and its message reaches the worker through the ingress', async () => {
    const server = await restateServer();
    const forward = (port: number, to: string): Promise<net.Server> =>
      listenWhenFree(
        net.createServer((socket) =>
          socket.pipe(net.connect(Number(new URL(to).port), new URL(to).hostname)).pipe(socket),
        ),
        port,
      );
    const proxies = [await forward(9070, server.adminUrl), await forward(8080, server.ingressUrl)];
    // The worker's own port: wait until it is free too, then let the example take it.
    await new Promise((resolve) => listenWhenFree(net.createServer(), 9080).then((probe) => probe.close(resolve)));
    anthropic.enqueue({
      events: answerEvents({ blocks: [{ text: ['Order 42 was charged twice; ', 'I can refund one charge.'] }] }),
    });
    const child = spawn(
      process.execPath,
      ['--conditions=@skein/source', '--import', tsxLoader, fileOf('packages/restate/README.md')],
      { cwd: work, env: { ...process.env, ...anthropicEnv() }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    try {
      // The example keeps serving after its call: wait for the reply it prints.
      for (let i = 0; i < 600 && !output.includes('messageCount') && child.exitCode === null; i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(output).toContain("text: 'Order 42 was charged twice; I can refund one charge.'");
      expect(output).toContain("stopReason: 'end_turn'");
      expect(output).toContain('messageCount: 2');
      // The conversation lives in Restate: its history is the message and the reply.
      expect(await server.call<unknown[]>('support/customer-42/history', null)).toHaveLength(2);
    } finally {
      child.kill('SIGKILL');
      for (const proxy of proxies) proxy.close();
      await server.stop();
    }
  }, 240_000);
});
