/**
 * Import cycles in packages/*\/src (`npm run lint` runs it). Fails on a cycle of value imports: modules
 * that need each other at load time, whose evaluation order decides what is still undefined. Reports
 * cycles that close only through `import type` / `export type` (erased at build time) without failing.
 *
 * What counts as a value import: any static `import` or `export ... from` that is not written `import
 * type` / `export type`. With `verbatimModuleSyntax`, `import { type A } from './a'` still loads `./a`
 * at run time, so it is a value import too. `import('./a')` (loaded later) is not counted. `@skein/<pkg>`
 * specifiers are followed to the package's source entry, so a cycle across packages is found as well.
 *
 * Usage: node --import tsx scripts/import-cycles.ts [--verbose]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync } from 'oxc-parser';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const verbose = process.argv.includes('--verbose');

interface Edge {
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const isFile = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;

/** `@skein/<dir>[/<subpath>]` -> that package's `@skein/source` entry. */
function packageEntries(): Map<string, string> {
  const entries = new Map<string, string>();
  for (const dir of readdirSync(join(root, 'packages'))) {
    const manifestPath = join(root, 'packages', dir, 'package.json');
    if (!isFile(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      name: string;
      exports?: Record<string, string | Record<string, string>>;
    };
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const source = typeof target === 'string' ? undefined : target['@skein/source'];
      if (source) entries.set(join(manifest.name, subpath), join(root, 'packages', dir, source));
    }
  }
  return entries;
}

function resolveSpecifier(from: string, specifier: string, entries: Map<string, string>): string | undefined {
  if (!specifier.startsWith('.')) return entries.get(specifier);
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    `${base}.ts`,
    join(base, 'index.ts'),
  ];
  return candidates.find(isFile);
}

/** Static imports and re-exports of a file, each marked type-only or not. */
function importsOf(file: string, entries: Map<string, string>): Edge[] {
  const { program } = parseSync(file, readFileSync(file, 'utf8'), { sourceType: 'module' });
  const edges: Edge[] = [];
  for (const statement of program.body) {
    let specifier: string | undefined;
    let typeOnly = false;
    if (statement.type === 'ImportDeclaration') {
      specifier = statement.source.value;
      typeOnly = statement.importKind === 'type';
    } else if (
      (statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportAllDeclaration') &&
      statement.source
    ) {
      specifier = statement.source.value;
      typeOnly = statement.exportKind === 'type';
    }
    const to = specifier === undefined ? undefined : resolveSpecifier(file, specifier, entries);
    if (to) edges.push({ to, typeOnly });
  }
  return edges;
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node) ?? 0, index.get(to) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** One shortest loop through the component's first file, as `a -> b -> a`, to show where to cut. */
function loopThrough(component: string[], graph: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = component[0] ?? '';
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() ?? '';
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [node];
        for (let at = node; at !== start; ) path.unshift((at = previous.get(at) ?? start));
        return [...path, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start];
}

const entries = packageEntries();
const files = readdirSync(join(root, 'packages')).flatMap((dir) =>
  isFile(join(root, 'packages', dir, 'package.json')) ? sourceFiles(join(root, 'packages', dir, 'src')) : [],
);
const valueGraph = new Map<string, string[]>();
const allGraph = new Map<string, string[]>();
for (const file of files) {
  const edges = importsOf(file, entries);
  valueGraph.set(
    file,
    edges.filter((e) => !e.typeOnly).map((e) => e.to),
  );
  allGraph.set(
    file,
    edges.map((e) => e.to),
  );
}

const rel = (path: string): string => relative(root, path);
const packageOf = (path: string): string => rel(path).split('/')[1] ?? '';
const valueCycles = cycles(valueGraph);
const typeCycles = cycles(allGraph).filter(
  (c) => !valueCycles.some((v) => v.every((f) => c.includes(f)) && v.length === c.length),
);

for (const component of valueCycles) {
  console.log(
    `value-import cycle (${component.length} files): ${loopThrough(component, valueGraph).map(rel).join(' -> ')}`,
  );
  if (verbose) for (const file of component) console.log(`  ${rel(file)}`);
}
for (const component of typeCycles) {
  console.log(
    `type-only cycle in ${packageOf(component[0] ?? '')} (${component.length} files, not failing): ${loopThrough(component, allGraph).map(rel).join(' -> ')}`,
  );
  if (verbose) for (const file of component) console.log(`  ${rel(file)}`);
}
console.log(
  `import cycles: ${files.length} files, ${valueCycles.length} value-import cycle(s)` +
    `, ${typeCycles.length} circle(s) closed by type-only imports (${typeCycles.map((c) => `${packageOf(c[0] ?? '')}: ${c.length} files`).join(', ') || 'none'})`,
);
if (valueCycles.length > 0) {
  console.log(
    'Cut each value cycle: move what both sides need into a module of its own, or import types with `import type`.',
  );
  process.exitCode = 1;
}
