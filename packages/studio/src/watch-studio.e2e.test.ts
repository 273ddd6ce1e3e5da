import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { watchStudio } from './index.js';

// The module must sit where @skein/core resolves (inside the repository).
const moduleDir = fileURLToPath(new URL(`../.watch-test-${process.pid}/`, import.meta.url));
const module = join(moduleDir, 'targets.mjs');

const source = (name: string, answer: string): string => `
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
export default {
  agents: { ${name}: ({ sessionManager }) => new Agent({ model: new ScriptedModel([${JSON.stringify(answer)}], { loop: true }), sessionManager }) },
};
`;

afterAll(async () => {
  await rm(moduleDir, { recursive: true, force: true });
});

describe('watchStudio', () => {
  it('reloads the module when its files change, on the same port, and the conversations stay', async () => {
    await mkdir(moduleDir, { recursive: true });
    const storeDir = await mkdtemp(join(tmpdir(), 'skein-studio-watch-'));
    await writeFile(module, source('first', 'one'));
    const studio = await watchStudio({ module, store: `sqlite:${join(storeDir, 'studio.db')}` });
    try {
      const names = async (): Promise<string[]> =>
        ((await (await fetch(`${studio.url}/studio/targets`)).json()) as { targets: { name: string }[] }).targets.map(
          (t) => t.name,
        );
      expect(await names()).toEqual(['first']);
      const sent = await fetch(`${studio.url}/v1/agents/first/conversations/c1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'hi' }),
      });
      expect(await sent.json()).toMatchObject({ text: 'one' });

      await writeFile(
        module,
        source('first', 'two').replace('agents: {', 'agents: { second: () => { throw new Error("x"); },'),
      );
      await expect.poll(() => names().catch(() => []), { timeout: 30_000, interval: 200 }).toEqual(['second', 'first']);
      const again = await fetch(`${studio.url}/v1/agents/first/conversations/c1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'again' }),
      });
      expect(await again.json()).toMatchObject({ text: 'two', turn: 2 });
    } finally {
      await studio.close();
      await rm(storeDir, { recursive: true, force: true });
    }
  }, 60_000);
});
