/**
 * `skein studio [module] [--port <n>] [--store <store>]`: starts `@skein/studio` on the module's
 * agents, graphs and swarms, reloading it when its folder changes (`watchStudio`). The studio depends on the inspector (its views), so the inspector does
 * not depend on it: it is loaded when the command runs, and a clear error says to install it.
 */
import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from './cli-io.js';
import type { CommandContext } from './command-line.js';

/** What the command uses of `@skein/studio`. */
interface StudioModule {
  watchStudio(options: {
    module: string;
    port?: number;
    store?: string;
    cwd?: string;
    log?: (line: string) => void;
  }): Promise<{ url: string; store: string; close(): Promise<void> }>;
}

/** The module files `skein studio` looks for when none is named. */
const DEFAULT_MODULES = ['skein.studio.ts', 'skein.studio.js', 'skein.studio.mjs'];

const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

async function loadStudio(): Promise<StudioModule> {
  const name = '@skein/studio'; // a variable: the inspector has no dependency on the studio (it depends on us)
  try {
    return (await import(name)) as StudioModule;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' && String(error).includes(name))
      throw new UsageError('skein studio needs @skein/studio: npm install --save-dev @skein/studio');
    throw error;
  }
}

/** Runs `skein studio`: resolves once the studio listens (the process lives on); `onServe` gets its close and URL. */
export async function studioCommand({ rest, values, io, onServe }: CommandContext): Promise<number> {
  let module = rest[0];
  for (const candidate of DEFAULT_MODULES) {
    if (module !== undefined) break;
    if (await exists(resolve(io.cwd, candidate))) module = candidate;
  }
  if (module === undefined)
    throw new UsageError(
      `Name the module that exports the agents, graphs and swarms (skein studio <module>), or put it in ${DEFAULT_MODULES[0]}.`,
    );
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be a port number (got ${values.port ?? ''}).`);
  const { watchStudio } = await loadStudio();
  const studio = await watchStudio({
    module,
    port,
    cwd: io.cwd,
    log: (line) => io.stderr.write(`${line}\n`),
    ...(values.store === undefined ? {} : { store: values.store }),
  });
  io.stdout.write(
    `skein studio: ${studio.url} (conversations in ${studio.store}; reloads when ${module}'s folder changes; Ctrl-C to stop)\n`,
  );
  if (onServe) onServe(() => studio.close(), studio.url);
  else
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.once(signal, () => void studio.close().then(() => process.exit(0)));
  return 0;
}
