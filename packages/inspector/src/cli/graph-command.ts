import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from './cli-io.js';

/** Imports `modulePath` and returns the Mermaid of its export `name` (default: `default`, else the only export with toMermaid). */
export async function mermaidOf(modulePath: string, name: string | undefined, cwd: string): Promise<string> {
  const file = isAbsolute(modulePath) ? modulePath : resolve(cwd, modulePath);
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const drawable = (v: unknown): v is { toMermaid(): string } =>
    typeof v === 'object' && v !== null && typeof (v as { toMermaid?: unknown }).toMermaid === 'function';
  if (name !== undefined) {
    const value = mod[name];
    if (!drawable(value))
      throw new UsageError(
        `${modulePath} has no export "${name}" with a toMermaid() method (exports: ${Object.keys(mod).join(', ') || 'none'}).`,
      );
    return value.toMermaid();
  }
  if (drawable(mod['default'])) return mod['default'].toMermaid();
  const candidates = Object.entries(mod).filter(([, v]) => drawable(v));
  const only = candidates[0];
  if (candidates.length === 1 && only && drawable(only[1])) return only[1].toMermaid();
  throw new UsageError(
    candidates.length === 0
      ? `${modulePath} exports nothing with a toMermaid() method; export a built Graph (or Swarm).`
      : `${modulePath} exports several graphs (${candidates.map(([k]) => k).join(', ')}); name one: skein graph ${modulePath} <export>.`,
  );
}
