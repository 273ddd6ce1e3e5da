import { serveStore } from '../serve/live-server.js';
import { openStore } from '../store/open-store.js';
import { UsageError } from './cli-io.js';
import { type CommandContext, need } from './command-line.js';

/** `skein serve <store> [--port <n>]`: resolves once the server is up; `onServe` gets its close and URL. */
export async function serveCommand({ rest, values, io, onServe }: CommandContext): Promise<number> {
  const store = openStore(need(rest[0], 'the store'), { env: io.env });
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be a port number (got ${values.port ?? ''}).`);
  const server = await serveStore(store, { port, internal: values.internal === true });
  io.stdout.write(`Serving ${store.label} on ${server.url} (Ctrl-C to stop)\n`);
  onServe?.(async () => {
    await server.close();
    await store.close();
  }, server.url);
  return 0;
}
