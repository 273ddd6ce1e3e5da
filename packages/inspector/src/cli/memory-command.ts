import type { MemoryStore } from '@skein/core';
import { type CommandContext, need } from './command-line.js';
import { withStore } from './with-store.js';

const STORE = 'the store (a directory, s3://bucket/prefix, sqlite:file.db or postgres://...)';

/** Everything memory keeps of one resource: its documents and its messages by thread. */
async function memoryOf(
  store: MemoryStore,
  resource: string,
): Promise<{ resource: string; documents: unknown[]; threads: Record<string, unknown[]> }> {
  const [documents, messages] = await Promise.all([store.listDocuments(resource), store.listMessages(resource)]);
  const threads: Record<string, unknown[]> = {};
  for (const m of messages) {
    const { embedding, ...shown } = m;
    (threads[m.thread] ??= []).push(embedding ? { ...shown, embedding: `${embedding.length} numbers` } : shown);
  }
  return { resource, documents, threads };
}

/** The text form of `memoryOf`. */
function render(memory: Awaited<ReturnType<typeof memoryOf>>): string {
  const lines = [`memory of ${memory.resource}`];
  for (const d of memory.documents as { key: string; version: number; updatedAt: string; value: unknown }[])
    lines.push(`  ${d.key}  v${d.version}  ${d.updatedAt}  ${JSON.stringify(d.value)}`);
  for (const [thread, messages] of Object.entries(memory.threads)) {
    lines.push(`  conversation ${thread}`);
    for (const m of messages as { at: string; role: string; text: string; embedding?: string }[])
      lines.push(`    ${m.at}  ${m.role}: ${m.text}${m.embedding ? `  [vector: ${m.embedding}]` : ''}`);
  }
  if (memory.documents.length === 0 && Object.keys(memory.threads).length === 0) lines.push('  (nothing stored)');
  return `${lines.join('\n')}\n`;
}

/**
 * `skein memory <store> [resource] [--json]`: the resources with memory, or one resource's documents
 * and messages; `skein memory forget <store> <resource>`: erases everything of it.
 */
export async function memoryCommand({ rest, values, io }: CommandContext): Promise<number> {
  if (rest[0] === 'forget') {
    const spec = need(rest[1], STORE);
    const resource = need(rest[2], 'the resource to forget');
    return await withStore(
      spec,
      io.env,
      async (store) => {
        const before = await memoryOf(store.memory, resource);
        await store.memory.forget(resource);
        const count = Object.values(before.threads).reduce((n, list) => n + list.length, 0);
        io.stdout.write(
          `Forgot ${resource} in ${store.label}: ${count} message(s) and ${before.documents.length} document(s) erased.\n`,
        );
        return 0;
      },
      true,
    );
  }
  return await withStore(need(rest[0], STORE), io.env, async (store) => {
    const resource = rest[1];
    if (resource === undefined) {
      const resources = await store.memory.listResources();
      io.stdout.write(
        values.json ? `${JSON.stringify(resources)}\n` : `${resources.join('\n')}${resources.length ? '\n' : ''}`,
      );
      return 0;
    }
    const memory = await memoryOf(store.memory, resource);
    io.stdout.write(values.json ? `${JSON.stringify(memory, null, 2)}\n` : render(memory));
    return 0;
  });
}
