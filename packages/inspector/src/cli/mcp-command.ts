/**
 * `skein mcp serve <module> [export]`: serves the agents, graphs and swarms a module declares as MCP
 * tools on stdin/stdout (what a desktop MCP client starts). The module exports the options of
 * `serveMcp` (`{ agents, graphs, swarms, sessions, ... }`), or a function returning them. Nothing but
 * MCP goes to stdout; lines for people go to stderr.
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServeMcpOptions } from '@skein/mcp';
import { UsageError } from './cli-io.js';
import { need, type CommandContext } from './command-line.js';

type Declared = ServeMcpOptions | (() => ServeMcpOptions | Promise<ServeMcpOptions>);

const isOptions = (v: unknown): v is ServeMcpOptions =>
  typeof v === 'object' && v !== null && typeof (v as { sessions?: unknown }).sessions === 'function';
const isDeclared = (v: unknown): v is Declared => isOptions(v) || typeof v === 'function';

/** The `serveMcp` options `modulePath` exports as `name`, else as `default`, else its only export that is some. */
async function loadOptions(modulePath: string, name: string | undefined, cwd: string): Promise<ServeMcpOptions> {
  const file = isAbsolute(modulePath) ? modulePath : resolve(cwd, modulePath);
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const candidates = Object.entries(mod).filter(([, v]) => isOptions(v));
  const found =
    name !== undefined
      ? mod[name]
      : isDeclared(mod['default'])
        ? mod['default']
        : candidates.length === 1
          ? candidates[0]?.[1]
          : undefined;
  if (!isDeclared(found))
    throw new UsageError(
      name !== undefined
        ? `${modulePath} has no export "${name}" with the options of serveMcp (exports: ${Object.keys(mod).join(', ') || 'none'}).`
        : `${modulePath} exports ${candidates.length === 0 ? 'no' : 'several'} serveMcp options; export { agents, graphs, swarms, sessions } as default (or a function returning them), or name the export.`,
    );
  const options = typeof found === 'function' ? await found() : found;
  if (!isOptions(options))
    throw new UsageError(
      `${modulePath}: the export must be the options of serveMcp: { agents, graphs, swarms, sessions, ... }.`,
    );
  return options;
}

/** Runs `skein mcp serve`: resolves once serving (the process lives while stdin is open). */
export async function mcpCommand({ rest, io }: CommandContext): Promise<number> {
  const [sub, modulePath, name] = rest;
  if (sub !== 'serve')
    throw new UsageError(`Unknown command "mcp ${sub ?? ''}"; use: skein mcp serve <module> [export].`);
  const options = await loadOptions(need(modulePath, 'the module'), name, io.cwd);
  const { serveMcp } = await import('@skein/mcp'); // loads the MCP SDK and the server only for this command
  const mcp = serveMcp(options);
  const token = io.env['SKEIN_MCP_AUTHORIZATION'];
  await mcp.stdio(token ? { headers: { authorization: token } } : {});
  process.stdin.once('end', () => void mcp.close());
  const tools = ['agents', 'graphs', 'swarms'].flatMap((k) => Object.keys(options[k as 'agents'] ?? {}));
  io.stderr.write(`skein mcp: serving ${tools.join(', ')} on stdio\n`);
  return 0;
}
