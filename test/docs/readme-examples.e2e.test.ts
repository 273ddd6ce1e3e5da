import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicTestServer, answerEvents } from '@skein/model-anthropic/testing';
import { chatChunks, OpenAITestServer } from '@skein/model-openai/testing';
import { startRgwServer, type RgwServer } from '@skein/session-s3/testing';
import { startPostgresServer, type PostgresServer } from '@skein/session-postgres/testing';
import { CreateBucketCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { RestateServer } from '@skein/restate/testing';
import {
  BedrockWireServer,
  textFrames,
  toolUseFrames,
} from '../../packages/model-bedrock/src/testing/bedrock-wire-server.js';
import { writeFixtureSessions } from '../../packages/inspector/src/testing/fixtures.js';
import { exampleModule, smallestExample } from './readme-example.js';

// Every README's smallest example (its first ```ts block) is type-checked as written and run, so the
// docs cannot drift from the code. Names a README leaves to the reader (`model`) come from a prelude;
// provider examples reach loopback servers through the SDKs' own environment variables.

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const outDir = join(root, 'test/docs/.generated');
const tsxLoader = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;

interface Example {
  /** README path from the repository root. */
  readme: string;
  /** Declarations the README leaves to the reader, for type-checking and running. */
  prelude?: string;
  /** Prepares a run: servers' replies, env and working directory. */
  setup?: () => Promise<{ env?: Record<string, string>; cwd?: string }>;
  /** What the run prints. */
  prints: RegExp;
  /** Checks what the run left behind (objects it stored). */
  check?: () => Promise<void>;
  /** Why the example is only type-checked. */
  typeCheckOnly?: string;
}

const scripted = (answers: string): string =>
  `import { ScriptedModel as ReaderModel } from '@skein/core/testing';\nconst model = new ReaderModel(${answers}, { loop: true });`;

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
    readme: 'packages/handoffs/README.md',
    prelude: `${scripted(`[{ toolUses: [{ name: 'transfer_to_refund_agent', input: { orderId: '42' } }] }]`)}\nconst prefetchOrder = async (orderId: string): Promise<void> => void orderId;`,
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
    prelude: scripted(`['Your order ships today.']`),
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
    prelude: scripted(`['Noted.', 'Horse racing.']`),
    setup: async () => ({ cwd: await mkdtemp(join(work, 'session-file-')) }),
    prints: /^4 Horse racing\.$/,
  },
  {
    // Against the radosgw the S3 tests use: AWS_ENDPOINT_URL_S3 at an IP address makes the SDK use
    // path-style URLs, so the README's bucket and options work as written.
    readme: 'packages/session-s3/README.md',
    prelude: scripted(`['Noted.']`),
    setup: async () => {
      rgw ??= await startRgwServer();
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
      expect((listed.Contents ?? []).map((o) => o.Key).sort()).toEqual([
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
      postgres ??= await startPostgresServer();
      return { env: { DATABASE_URL: await postgres.createDatabase('readme') } };
    },
    prints: /^4$/,
  },
  {
    readme: 'packages/restate/README.md',
    prints: /^$/,
    typeCheckOnly:
      'it serves until stopped: the test below runs it against a restate-server and calls it through the ingress',
  },
  {
    readme: 'packages/swarm/README.md',
    prelude: scripted(`['I can help with that charge.']`),
    prints: /completed \[ 'Triage agent' \] I can help with that charge\./,
  },
];

const fileOf = (readme: string): string =>
  join(outDir, `${readme.replace(/\/README\.md$|README\.md$/, '').replace(/\//g, '-') || 'root'}.ts`);

beforeAll(async () => {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  work = await mkdtemp(join(tmpdir(), 'skein-readme-'));
  for (const example of examples)
    await writeFile(
      fileOf(example.readme),
      exampleModule(await smallestExample(join(root, example.readme)), example.prelude),
    );
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

describe('the @skein/restate README example', () => {
  // It serves its worker on 9080 and registers it with the admin API on localhost:9070, as a local
  // `npx restate-server` listens: a proxy on 9070 forwards to a restate-server on random ports.
  it('serves, registers itself, and answers a conversation through the ingress', async () => {
    const server = await RestateServer.start();
    const admin = new URL(server.adminUrl);
    const proxy = net.createServer((socket) =>
      socket.pipe(net.connect(Number(admin.port), admin.hostname)).pipe(socket),
    );
    await new Promise<void>((resolve) => proxy.listen(9070, resolve));
    anthropic.enqueue({
      events: answerEvents({ blocks: [{ text: ['Order 42 was charged twice; ', 'I can refund one charge.'] }] }),
    });
    const child = spawn(
      process.execPath,
      ['--conditions=@skein/source', '--import', tsxLoader, fileOf('packages/restate/README.md')],
      { cwd: work, env: { ...process.env, ...anthropicEnv() }, stdio: 'ignore' },
    );
    try {
      let registered = false;
      for (let i = 0; i < 300 && !registered; i++) {
        const listed = (await (await fetch(`${server.adminUrl}/deployments`)).json()) as { deployments?: unknown[] };
        registered = (listed.deployments ?? []).length > 0;
        if (!registered) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(registered).toBe(true);
      const reply = await server.call<{ text: string; messageCount: number }>(
        'support/customer-1/send',
        'What happened to order 42?',
      );
      expect(reply).toMatchObject({ text: 'Order 42 was charged twice; I can refund one charge.', messageCount: 2 });
    } finally {
      child.kill('SIGKILL');
      proxy.close();
      await server.stop();
    }
  }, 240_000);
});
