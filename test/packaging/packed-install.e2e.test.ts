import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The packages as users install them: built, packed with `npm pack`, installed from the tarballs into
// a fresh project outside the monorepo, then imported from ESM, required from CommonJS and
// type-checked with both module resolutions users pick. publint and attw check the manifests.

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = (name: string): string => join(root, 'node_modules', '.bin', name);

interface Packed {
  dir: string;
  name: string;
  tarball: string;
  subpaths: string[];
}

let project = '';
let packed: Packed[] = [];

async function packAll(dest: string): Promise<Packed[]> {
  const dirs = (await readdir(join(root, 'packages'))).sort();
  const out: Packed[] = [];
  for (const dir of dirs) {
    const manifest = JSON.parse(await readFile(join(root, 'packages', dir, 'package.json'), 'utf8')) as {
      name: string;
      private?: boolean;
      exports: Record<string, unknown>;
    };
    if (manifest.private) continue;
    const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', dest, '-w', `packages/${dir}`], {
      cwd: root,
    });
    const tarball = join(dest, stdout.trim().split('\n').pop() ?? '');
    const subpaths = Object.keys(manifest.exports).filter((k) => k !== './package.json');
    out.push({ dir, name: manifest.name, tarball, subpaths });
  }
  return out;
}

const specifier = (p: Packed, sub: string): string => (sub === '.' ? p.name : `${p.name}/${sub.slice(2)}`);

beforeAll(async () => {
  await run(bin('tsc'), ['-b', 'tsconfig.build.json'], { cwd: root });
  project = await mkdtemp(join(tmpdir(), 'skein-packed-'));
  packed = await packAll(project);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'packed-app', private: true, type: 'module' }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packed.map((p) => p.tarball)], {
    cwd: project,
    maxBuffer: 16 * 1024 * 1024,
  });
}, 900_000); // builds, packs and installs every package: minutes on a loaded 2-core machine

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe('packed packages', () => {
  it('pass publint', async () => {
    for (const p of packed) {
      const { stdout } = await run(bin('publint'), ['--strict', join(root, 'packages', p.dir)], { cwd: root });
      expect(stdout, p.name).toContain('All good');
    }
  }, 120_000);

  it('show no attw problem beyond ESM-only', async () => {
    for (const p of packed) {
      // attw exits non-zero when it finds a problem in the profile.
      await expect(
        run(bin('attw'), [p.tarball, '--profile', 'esm-only', '--format', 'ascii'], { cwd: project }),
        p.name,
      ).resolves.toBeDefined();
    }
  }, 120_000);

  it('import from ESM and require from CommonJS, every subpath', async () => {
    const specs = packed.flatMap((p) => p.subpaths.map((s) => specifier(p, s)));
    const esm = specs
      .map(
        (s, i) =>
          `import * as m${i} from '${s}'; if (Object.keys(m${i}).length === 0 && '${s}'.includes('testing') === false) throw new Error('${s}: no exports');`,
      )
      .join('\n');
    await writeFile(join(project, 'esm.mjs'), `${esm}\nconsole.log('esm ok');\n`);
    const cjs = specs.map((s) => `require('${s}');`).join('\n');
    await writeFile(join(project, 'cjs.cjs'), `${cjs}\nconsole.log('cjs ok');\n`);
    expect((await run('node', ['esm.mjs'], { cwd: project })).stdout).toContain('esm ok');
    expect((await run('node', ['cjs.cjs'], { cwd: project })).stdout).toContain('cjs ok');
  }, 60_000);

  it('installs the skein command of @skein/inspector', async () => {
    expect(packed.map((p) => p.name)).toContain('@skein/inspector');
    const { stdout } = await run(join(project, 'node_modules', '.bin', 'skein'), ['--help'], { cwd: project });
    expect(stdout).toContain('skein sessions');
  }, 30_000);

  it.each(['nodenext', 'bundler'])(
    'type-check with moduleResolution %s',
    async (resolution) => {
      const specs = packed.flatMap((p) => p.subpaths.map((s) => specifier(p, s)));
      const source = specs.map((s, i) => `import * as m${i} from '${s}';\nexport const e${i} = m${i};`).join('\n');
      await writeFile(join(project, `check-${resolution}.ts`), source);
      const module = resolution === 'nodenext' ? 'nodenext' : 'preserve';
      const tsconfig = {
        compilerOptions: {
          module,
          moduleResolution: resolution,
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
          typeRoots: [join(root, 'node_modules/@types')],
        },
        files: [`check-${resolution}.ts`],
      };
      await writeFile(join(project, `tsconfig.${resolution}.json`), JSON.stringify(tsconfig));
      await expect(run(bin('tsc'), ['-p', `tsconfig.${resolution}.json`], { cwd: project })).resolves.toBeDefined();
    },
    120_000,
  );
});
