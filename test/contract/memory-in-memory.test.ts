import { InMemoryMemoryStore } from '@skein/memory';
import { memoryStoreContract, trackedMemoryStorage } from './memory-store-contract.js';

memoryStoreContract({
  name: 'in-memory',
  sharedWriters: false,
  async fresh() {
    const store = new InMemoryMemoryStore();
    return trackedMemoryStorage(
      () => store,
      async (needle) =>
        JSON.stringify(await Promise.all((await store.listResources()).map((r) => store.listMessages(r)))).includes(
          needle,
        ) ||
        JSON.stringify(await Promise.all((await store.listResources()).map((r) => store.listDocuments(r)))).includes(
          needle,
        ),
      async () => undefined,
    );
  },
});
