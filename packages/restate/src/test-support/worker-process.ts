/** Starts the test worker as a child process on a fixed port (so a restarted worker takes its place). */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const workerFile = fileURLToPath(new URL('./test-worker.ts', import.meta.url));
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface WorkerProcess {
  port: number;
  child: ChildProcess;
  kill(): Promise<void>;
}

export async function startWorker(port: number, env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--conditions=@skein/source', '--import', tsxLoader, workerFile], {
    env: { ...process.env, ...env, SKEIN_WORKER_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const log = env['SKEIN_WORKER_LOG'];
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    if (log) appendFileSync(log, chunk);
  });
  if (log) child.stdout?.on('data', (chunk: Buffer) => appendFileSync(log, chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${stderr}`)));
  });
  return {
    port,
    child,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
