/**
 * The pages' scripts and style, served by the desk itself (no CDN, no network): the two page scripts
 * (`client/customer.ts`, `client/supervisor.ts`, with the `ai` package's chat client) bundled by
 * esbuild in memory when the desk starts, and `client/desk.css` as it is.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export interface Asset {
  body: Uint8Array;
  type: string;
}

const client = (name: string): string => fileURLToPath(new URL(`./client/${name}`, import.meta.url));

/** Bundles the page scripts; resolves with the assets by file name (`customer.js`, `supervisor.js`, `desk.css`). */
export async function buildAssets(): Promise<Map<string, Asset>> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: { customer: client('customer.ts'), supervisor: client('supervisor.ts') },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    outdir: '/assets',
    logLevel: 'silent',
  });
  const assets = new Map<string, Asset>();
  for (const file of result.outputFiles) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    assets.set(name, { body: file.contents, type: 'text/javascript; charset=utf-8' });
  }
  assets.set('desk.css', { body: await readFile(client('desk.css')), type: 'text/css; charset=utf-8' });
  return assets;
}
