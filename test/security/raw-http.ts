/**
 * HTTP as a hostile client sends it: the exact path bytes (no URL normalization), any body (bytes,
 * a huge one, one that trickles), and an answer that may never come (`undefined` after `timeoutMs`).
 * A server that answers a huge upload early and then closes may reset the connection before this
 * client reads the answer (TCP drops unread data on a reset): that outcome is `status: 0`, "closed",
 * which still means the server let go of the request at once.
 */
import { request } from 'node:http';

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Send the body in this many pieces, `delayMs` apart (chunked unless a content-length is given). */
  pieces?: number;
  delayMs?: number;
  /** Resolve once the answer's head arrived (a stream that never ends, such as the desk's notices). */
  untilHead?: boolean;
}

export interface RawResponse {
  /** The HTTP status; 0 when the server closed the connection without an answer this client could read. */
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Milliseconds from the first byte sent to the last byte of the answer. */
  ms: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Sends `req` to 127.0.0.1:`port`; resolves with the answer, or `undefined` when none came within `timeoutMs`. */
export function raw(port: number, req: RawRequest, timeoutMs = 5_000): Promise<RawResponse | undefined> {
  const started = Date.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (value: RawResponse | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      client.destroy();
      resolve(value);
    };
    const client = request(
      {
        host: '127.0.0.1',
        port,
        method: req.method ?? 'GET',
        path: req.path,
        headers: req.headers ?? {},
        agent: false,
      },
      (res) => {
        if (req.untilHead) {
          done({ status: res.statusCode ?? 0, headers: res.headers, body: '', ms: Date.now() - started });
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          done({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: Date.now() - started,
          }),
        );
        res.on('error', () => done(undefined));
      },
    );
    const timer = setTimeout(() => done(undefined), timeoutMs);
    const closed = (): void => done({ status: 0, headers: {}, body: '', ms: Date.now() - started });
    // The server may answer and close before the whole body is sent: give the answer a moment to be read.
    client.on('error', () => setTimeout(closed, 50));
    void (async () => {
      const body = req.body === undefined ? undefined : Buffer.from(req.body);
      if (!body) return client.end();
      const pieces = Math.max(1, req.pieces ?? 1);
      const size = Math.ceil(body.length / pieces);
      for (let at = 0; at < body.length && !settled; at += size) {
        if (!client.write(body.subarray(at, at + size))) await new Promise((r) => client.once('drain', r));
        if (req.delayMs) await sleep(req.delayMs);
      }
      client.end();
    })().catch(() => undefined);
  });
}

/** The resident memory of process `pid`, in MB (Linux). */
export async function rssMb(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}
