import { errorMessage } from '@skein/core';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { paintFor } from '../render/ansi.js';
import { renderHtmlPage } from '../render/html-page.js';
import { pageData } from '../render/page-data.js';
import { renderConversation } from '../render/text-conversation.js';
import { renderSessions } from '../render/text-sessions.js';
import { renderSteps } from '../render/text-steps.js';
import { renderSession } from '../render/text-timeline.js';
import { serveStore } from '../serve/live-server.js';
import { openStore } from '../store/open-store.js';
import type { InspectorStore } from '../store/inspector-store.js';
import { loadSession } from '../view/load-session.js';
import { runView } from '../view/run-view.js';
import { listSessionSummaries } from '../view/session-summary.js';
import { loadSteps } from '../view/steps-view.js';
import { USAGE, UsageError, type CliIo } from './cli-io.js';
import { copySessions } from './copy-command.js';
import { forkCommand } from './fork-command.js';
import { mermaidOf } from './graph-command.js';

const OPTIONS = {
  json: { type: 'boolean' },
  full: { type: 'boolean' },
  agent: { type: 'string' },
  output: { type: 'string', short: 'o' },
  port: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  out: { type: 'string' },
  baseline: { type: 'string' },
  threshold: { type: 'string' },
  concurrency: { type: 'string' },
  repeats: { type: 'string' },
  resume: { type: 'boolean' },
  store: { type: 'string' },
  steps: { type: 'boolean' },
  step: { type: 'string' },
  to: { type: 'string' },
  orchestrator: { type: 'string' },
} as const;

function need(value: string | undefined, what: string): string {
  if (value === undefined || value === '') throw new UsageError(`Missing ${what}.`);
  return value;
}

async function withStore<T>(
  spec: string,
  env: NodeJS.ProcessEnv,
  use: (store: InspectorStore) => Promise<T>,
  writable = false,
): Promise<T> {
  const store = openStore(spec, { env, writable });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

/**
 * Runs the `skein` command line. Resolves with the exit code (`serve` resolves when the server is up
 * and keeps running; pass `onServe` to get hold of it). 0 success, 1 failure, 2 usage error.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  onServe?: (close: () => Promise<void>, url: string) => void,
): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    });
    const [command, ...rest] = positionals;
    if (values.help || command === undefined || command === 'help') {
      io.stdout.write(USAGE);
      return command === undefined && !values.help ? 2 : 0;
    }
    const paint = paintFor(io.stdout, io.env);
    switch (command) {
      case 'sessions':
        if (rest[0] === 'copy') {
          const [from, to] = [need(rest[1], 'the store to copy from'), need(rest[2], 'the store to copy into')];
          return await withStore(from, io.env, (source) =>
            withStore(
              to,
              io.env,
              async (target) => {
                const ids = await copySessions(source, target, (line) => io.stdout.write(`${line}\n`));
                io.stdout.write(
                  `Copied ${ids.length} session(s) from ${source.label} to ${target.label}; both read back equal.\n`,
                );
                return 0;
              },
              true,
            ),
          );
        }
        return await withStore(
          need(rest[0], 'the store (a directory, s3://bucket/prefix, sqlite:file.db or postgres://...)'),
          io.env,
          async (store) => {
            const list = await listSessionSummaries(store);
            io.stdout.write(values.json ? `${JSON.stringify(list, null, 2)}\n` : renderSessions(list, paint));
            return 0;
          },
        );
      case 'show':
        return await withStore(need(rest[0], 'the store'), io.env, async (store) => {
          const sessionId = need(rest[1], 'the session id');
          const wanted = values.agent;
          const matches = (id: string): boolean => id === wanted || id.endsWith(`.${wanted ?? ''}`);
          const agentIds = wanted === undefined ? [] : (await store.listAgents(sessionId)).filter(matches);
          const session = await loadSession(store, sessionId, { messages: agentIds, steps: false });
          if (wanted !== undefined) {
            const agent = session.agents.find((a) => matches(a.id));
            if (!agent)
              throw new UsageError(
                `Session ${session.id} has no agent "${wanted}" (agents: ${session.agents.map((a) => a.id).join(', ') || 'none'}).`,
              );
            io.stdout.write(
              values.json
                ? `${JSON.stringify(agent, null, 2)}\n`
                : renderConversation(agent, paint, values.full === true),
            );
            return 0;
          }
          if (values.steps) {
            const steps = await Promise.all(
              session.orchestrators.map(async (o) => [o.id, await loadSteps(store, sessionId, o.id, 'all')] as const),
            );
            io.stdout.write(
              values.json
                ? `${JSON.stringify(Object.fromEntries(steps), null, 2)}\n`
                : steps.map(([id, list]) => renderSteps(id, list, paint)).join(''),
            );
            return 0;
          }
          const runs = session.orchestrators.map(runView);
          io.stdout.write(
            values.json
              ? `${JSON.stringify({ session: { id: session.id, type: session.type, problems: session.problems }, runs }, null, 2)}\n`
              : renderSession(session, runs, paint),
          );
          return 0;
        });
      case 'fork':
        return await withStore(need(rest[0], 'the store'), io.env, (store) =>
          forkCommand(
            store,
            {
              sessionId: need(rest[1], 'the session id'),
              step: values.step,
              to: values.to,
              orchestrator: values.orchestrator,
            },
            (text) => io.stdout.write(text),
          ),
        );
      case 'export':
        return await withStore(need(rest[0], 'the store'), io.env, async (store) => {
          const output = need(values.output, 'the output file (-o run.html)');
          const data = pageData(await loadSession(store, need(rest[1], 'the session id')));
          await writeFile(output, renderHtmlPage(data));
          io.stdout.write(`Wrote ${output}\n`);
          return 0;
        });
      case 'serve': {
        const store = openStore(need(rest[0], 'the store'), { env: io.env });
        const port = values.port === undefined ? 0 : Number(values.port);
        if (!Number.isInteger(port) || port < 0 || port > 65535)
          throw new UsageError(`--port must be a port number (got ${values.port ?? ''}).`);
        const server = await serveStore(store, { port });
        io.stdout.write(`Serving ${store.label} on ${server.url} (Ctrl-C to stop)\n`);
        onServe?.(async () => {
          await server.close();
          await store.close();
        }, server.url);
        return 0;
      }
      case 'graph':
        io.stdout.write(`${await mermaidOf(need(rest[0], 'the module'), rest[1], io.cwd)}\n`);
        return 0;
      case 'eval': {
        const { evalCommand } = await import('./eval-command.js'); // loads @skein/evals only for eval commands
        return await evalCommand(rest, values, io);
      }
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } catch (error) {
    const usage = error instanceof UsageError || (error as { code?: unknown }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION';
    io.stderr.write(`skein: ${errorMessage(error)}\n${usage ? `\n${USAGE}` : ''}`);
    return usage ? 2 : 1;
  }
}
