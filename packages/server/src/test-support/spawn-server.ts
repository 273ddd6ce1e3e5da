/** Starts `server-process.ts` in a child process and waits for its URL (the child is the server's node process itself). */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./server-process.ts', import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** With `hostname`: the process runs in a UTS namespace of its own under that host name (`unshare --uts`, as root): a server "on another host". */
export async function spawnServer(
  env: Record<string, string>,
  options: { hostname?: string } = {},
): Promise<ServerProcess> {
  const node = [process.execPath, '--conditions=@skein/source', '--import', 'tsx', script];
  const [command, ...args] = options.hostname
    ? ['unshare', '--uts', 'sh', '-c', 'hostname "$0" && exec "$@"', options.hostname, ...node]
    : node;
  const child = spawn(command as string, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening: ${err}`)));
  });
  return { url, child, stderr: () => err, exited };
}
