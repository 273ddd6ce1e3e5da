/**
 * The studio page: its HTML, and its script (`client/studio.ts`, bundled by esbuild in memory when the
 * studio starts, with the inspector's views) and style, served by the studio itself: no CDN, no
 * request leaves the machine.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** One served file. */
export interface Asset {
  body: Uint8Array;
  type: string;
}

/** The page's sources: beside this file when run from source, in `../src/client` when run from `dist`. */
const CLIENT_DIR = /\/dist\/[^/]*$/.test(import.meta.url) ? '../src/client/' : './client/';
const client = (name: string): string => fileURLToPath(new URL(`${CLIENT_DIR}${name}`, import.meta.url));

/** The page's policy: its own script and style only, requests to itself only. */
export const STUDIO_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Bundles the page script; resolves with the assets by path (`/studio/studio.js`, `/studio/studio.css`). */
export async function buildAssets(): Promise<Map<string, Asset>> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [client('studio.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['@skein/source'],
    minify: true,
    write: false,
    outfile: '/studio/studio.js',
    logLevel: 'silent',
  });
  const assets = new Map<string, Asset>();
  for (const file of result.outputFiles)
    assets.set('/studio/studio.js', { body: file.contents, type: 'text/javascript; charset=utf-8' });
  assets.set('/studio/studio.css', { body: await readFile(client('studio.css')), type: 'text/css; charset=utf-8' });
  return assets;
}

/** The page (everything in it is drawn by the script). */
export const STUDIO_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>skein studio</title>
<link rel="stylesheet" href="/studio/studio.css">
<script type="module" src="/studio/studio.js"></script>
</head>
<body>
<header><h1>skein studio</h1><nav aria-label="Targets" id="targets"></nav></header>
<main id="studio"><p>Loading…</p></main>
</body>
</html>
`;
