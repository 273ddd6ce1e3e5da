import { errorMessage } from '@skein/core';
import { USAGE, UsageError, skeinCommand, type CliIo } from './cli-io.js';
import { type CommandContext, need, parseCommandLine } from './command-line.js';
import { exportCommand } from './export-command.js';
import { forkCommand } from './fork-command.js';
import { mermaidOf } from './graph-command.js';
import { memoryCommand } from './memory-command.js';
import { mcpCommand } from './mcp-command.js';
import { serveCommand } from './serve-command.js';
import { sessionsCommand } from './sessions-command.js';
import { showCommand } from './show-command.js';
import { studioCommand } from './studio-command.js';
import { withStore } from './with-store.js';

/** Each command's handler, by the command's name. */
const COMMANDS: Record<string, (context: CommandContext) => Promise<number>> = {
  sessions: sessionsCommand,
  show: showCommand,
  fork: ({ rest, values, io }) =>
    withStore(need(rest[0], 'the store'), io.env, (store) =>
      forkCommand(
        store,
        {
          sessionId: need(rest[1], 'the session id'),
          step: values.step,
          to: values.to,
          orchestrator: values.orchestrator,
        },
        (text) => io.stdout.write(text),
        skeinCommand(io.env),
      ),
    ),
  export: exportCommand,
  memory: memoryCommand,
  serve: serveCommand,
  graph: async ({ rest, io }) => {
    io.stdout.write(`${await mermaidOf(need(rest[0], 'the module'), rest[1], io.cwd)}\n`);
    return 0;
  },
  mcp: mcpCommand,
  studio: studioCommand,
  eval: async ({ rest, values, io }) => {
    const { evalCommand } = await import('./eval-command.js'); // loads @skein/evals only for eval commands
    return await evalCommand(rest, values, io);
  },
};

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
    const { values, positionals } = parseCommandLine(argv);
    const [command, ...rest] = positionals;
    if (values.help || command === undefined || command === 'help') {
      io.stdout.write(USAGE);
      return command === undefined && !values.help ? 2 : 0;
    }
    const handler = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (handler === undefined) throw new UsageError(`Unknown command "${command}".`);
    return await handler({ rest, values, io, onServe });
  } catch (error) {
    const usage = error instanceof UsageError || (error as { code?: unknown }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION';
    io.stderr.write(`skein: ${errorMessage(error)}\n${usage ? `\n${USAGE}` : ''}`);
    return usage ? 2 : 1;
  }
}
