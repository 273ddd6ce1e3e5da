import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileStore, serveStore } from '../index.js';

// The live view reads only: every answer carries the page's policy as headers, and anything but GET
// or HEAD is refused without reading its body.

let dir = '';
let server: Awaited<ReturnType<typeof serveStore>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-inspector-live-'));
  server = await serveStore(openFileStore(dir));
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the live view as a hostile client finds it', () => {
  it('sends its policy as headers: never framed, no sniffing, no referrer', async () => {
    const index = await fetch(server.url);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(index.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('refuses anything but GET and HEAD, reading no body', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await fetch(`${server.url}session/x/`, { method, body: 'x'.repeat(2 * 1024 * 1024) });
      expect([method, response.status]).toEqual([method, 405]);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
  });
});
