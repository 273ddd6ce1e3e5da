import type { InspectorStore } from '../store/inspector-store.js';
import { openStore } from '../store/open-store.js';

/** Opens the store `spec` names, hands it to `use`, and closes it whatever `use` does. */
export async function withStore<T>(
  spec: string,
  env: NodeJS.ProcessEnv,
  use: (store: InspectorStore) => Promise<T>,
  writable = false,
): Promise<T> {
  const store = openStore(spec, { env, writable });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}
