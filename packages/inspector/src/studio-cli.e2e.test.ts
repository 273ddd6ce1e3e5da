import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './index.js';
import { captureIo } from './test-support/capture-io.js';

const deskModule = fileURLToPath(new URL('../../../examples/support-desk/src/studio-desk.ts', import.meta.url));
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-studio-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('skein studio', () => {
  it('says which module it needs, and refuses a bad port', async () => {
    const io = captureIo({ cwd: dir });
    expect(await runCli(['studio'], io)).toBe(2);
    expect(io.err()).toContain('Name the module that exports the agents, graphs and swarms');
    const bad = captureIo({ cwd: dir });
    expect(await runCli(['studio', deskModule, '--port', 'x'], bad)).toBe(2);
    expect(bad.err()).toContain('--port must be a port number');
  });

  it("serves the desk's targets through @skein/studio (loaded on demand) with the store named", async () => {
    const saved = { model: process.env['DESK_MODEL'], dir: process.env['SKEIN_DESK_DIR'] };
    process.env['DESK_MODEL'] = 'scripted';
    process.env['SKEIN_DESK_DIR'] = join(dir, 'desk');
    let close: (() => Promise<void>) | undefined;
    try {
      const io = captureIo({ cwd: dir });
      const code = await runCli(['studio', deskModule, '--store', 'sqlite:studio.db'], io, (c) => (close = c));
      expect(code).toBe(0);
      const url = /skein studio: (http:\/\/127\.0\.0\.1:\d+) \(conversations in (\S+);/.exec(io.out());
      expect(url?.[2]).toBe(join(dir, 'studio.db'));
      const listed = (await (await fetch(`${url?.[1]}/studio/targets`)).json()) as { targets: { name: string }[] };
      expect(listed.targets.map((t) => t.name)).toEqual(['desk', 'desk', 'desk']);
    } finally {
      await close?.();
      process.env['DESK_MODEL'] = saved.model;
      process.env['SKEIN_DESK_DIR'] = saved.dir;
      if (saved.model === undefined) delete process.env['DESK_MODEL'];
      if (saved.dir === undefined) delete process.env['SKEIN_DESK_DIR'];
    }
  }, 60_000);
});
