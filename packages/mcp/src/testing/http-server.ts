import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { createTestServer } from './test-server.js';
import type { TestServerBehaviour } from './test-server-behaviour.js';

/** A running streamable HTTP test server. */
export interface HttpTestServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:54321/mcp`. */
  readonly url: string;
  /** Headers of every HTTP request received, in order. */
  readonly requests: IncomingHttpHeaders[];
  /** Cuts every open connection (a server that dies mid-call) but keeps listening. */
  dropConnections(): void;
  /** Stops the server and cuts every connection. */
  close(): Promise<void>;
}

/** Options of {@link startHttpTestServer}. */
export interface HttpTestServerOptions extends TestServerBehaviour {
  /** Listen on this port (to restart a server where it was); default a free one. */
  port?: number;
}

/** Starts the test server over streamable HTTP on 127.0.0.1, one MCP session per client. */
export async function startHttpTestServer(options: HttpTestServerOptions = {}): Promise<HttpTestServer> {
  const behaviour: TestServerBehaviour = options.badSchema ? { badSchema: true } : {};
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  const requests: IncomingHttpHeaders[] = [];
  const http: Server = createServer((req, res) => {
    requests.push(req.headers);
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      const created = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void sessions.set(sid, created),
        onsessionclosed: (sid) => void sessions.delete(sid),
      });
      transport = created;
      void createTestServer(behaviour).connect(created);
    }
    transport.handleRequest(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    dropConnections: () => http.closeAllConnections(),
    close: async () => {
      await Promise.allSettled([...sessions.values()].map((t) => t.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
