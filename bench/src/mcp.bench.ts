/**
 * Per-call overhead of the MCP door (`serveMcp` of @skein/mcp), against calling the same agent in
 * process in the same run (the floor: a fresh Agent on a fresh in-memory session, invoked, as each
 * call of the door builds one). Rows: the floor; the skein server's own JSON route through `app.fetch`
 * (what the door adds on top of the server); the SDK's `Client` over streamable HTTP on loopback; the
 * SDK's `Client` over stdio to a child process running `skein mcp serve`. Each call starts a new
 * conversation and the agent answers at once ("ok"), so what is measured is the door. Variants run
 * interleaved, one batch each per round; medians of the rounds, wall time (the stdio server runs in
 * another process, so CPU time of this one would say little).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { InMemorySessionRepository, RepositorySessionManager } from '@skein/core';
import { serveMcp } from '@skein/mcp';
import { serve } from '@skein/server';
import { benchOptions, echoAgent } from './mcp-bench-module.js';
import { table } from './measure.js';

const CALLS = Number(process.env['BENCH_MCP_CALLS'] ?? 100);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const here = fileURLToPath(new URL('.', import.meta.url));

async function main(): Promise<void> {
  const repository = new InMemorySessionRepository();
  let n = 0;
  const inProcess = async (): Promise<void> => {
    const agent = echoAgent(new RepositorySessionManager({ sessionId: `c${n++}`, repository }));
    await agent.invoke('hi');
  };
  const mcp = serveMcp(benchOptions());
  const running = await serve(mcp.app, { port: 0, handleSignals: false, log: null });
  const serverRoute = async (): Promise<void> => {
    const request = new Request(`http://x/v1/agents/echo/conversations/r${n++}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"message":"hi"}',
    });
    await (await mcp.app.fetch(request)).json();
  };
  const http = new Client({ name: 'bench', version: '1.0.0' });
  await http.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`)));
  const stdio = new Client({ name: 'bench', version: '1.0.0' });
  await stdio.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [
        '--conditions=@skein/source',
        '--import',
        'tsx',
        resolve(here, '../../packages/inspector/src/bin.ts'),
        'mcp',
        'serve',
        resolve(here, 'mcp-bench-module.ts'),
        'benchOptions',
      ],
      stderr: 'ignore',
    }),
  );
  const call = (client: Client) => async (): Promise<void> => {
    const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    if (result.isError) throw new Error(JSON.stringify(result.content));
  };
  const variants: [string, () => Promise<void>][] = [
    ['floor: the agent in process (fresh Agent + session)', inProcess],
    ['skein server JSON route via app.fetch (no MCP)', serverRoute],
    ['MCP over streamable HTTP (SDK Client, loopback)', call(http)],
    ['MCP over stdio (SDK Client, skein mcp serve)', call(stdio)],
  ];
  for (const [, fn] of variants) for (let i = 0; i < 50; i++) await fn();
  const runs = variants.map((): number[] => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, [, fn]] of variants.entries()) {
      const start = process.hrtime.bigint();
      for (let c = 0; c < CALLS; c++) await fn();
      runs[i]?.push(Number(process.hrtime.bigint() - start) / 1_000 / CALLS);
    }
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  const floor = median(runs[0] ?? []);
  const rows: (string | number)[][] = [['variant', 'wall µs/call', 'over floor µs', 'x floor']];
  for (const [i, [name]] of variants.entries()) {
    const wall = median(runs[i] ?? []);
    rows.push([name, Math.round(wall), Math.round(wall - floor), (wall / floor).toFixed(2)]);
  }
  console.log(`${CALLS} calls per batch, ${ROUNDS} rounds, medians`);
  table(rows);
  await Promise.allSettled([http.close(), stdio.close()]);
  await mcp.close();
  await running.stop();
}

await main();
