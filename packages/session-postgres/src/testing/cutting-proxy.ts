import net from 'node:net';

/** A TCP proxy to a PostgreSQL server that can cut one connection at a chosen client message (for tests of lost answers). */
export interface CuttingProxy {
  /** `postgres://...` through the proxy, for `database` on the server. */
  readonly port: number;
  /**
   * Cuts the next connection that sends a simple or extended query containing `sql` (e.g. `COMMIT`):
   * `after` forwards it to the server first and drops the answer (the server did it, the client
   * never hears); `before` drops the connection without forwarding it.
   */
  cutAt(sql: string, when: 'before' | 'after'): void;
  /** How many cuts happened. */
  readonly cuts: number;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 (a free port) to `host:port`. */
export function startCuttingProxy(host: string, port: number): Promise<CuttingProxy> {
  let armed: { sql: string; when: 'before' | 'after' } | undefined;
  let cuts = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host);
    sockets.add(client).add(upstream);
    let cut = false;
    const drop = () => {
      cut = true;
      cuts++;
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      const hit = armed && chunk.includes(armed.sql);
      if (hit && armed?.when === 'before') {
        armed = undefined;
        return drop();
      }
      upstream.write(chunk);
      if (hit) {
        armed = undefined;
        setTimeout(drop, 50); // the server commits; its answer is never relayed
        cut = true;
      }
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!cut) client.write(chunk);
    });
    for (const s of [client, upstream]) {
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo;
      resolve({
        port: address.port,
        cutAt: (sql, when) => void (armed = { sql, when }),
        get cuts() {
          return cuts;
        },
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
