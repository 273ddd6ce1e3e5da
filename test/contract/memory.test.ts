import { InMemorySessionRepository } from '@skein/core';
import { sessionContract, trackedStorage } from './session-contract.js';

sessionContract({
  name: 'in-memory',
  sharedWriters: false,
  fresh: async () =>
    trackedStorage(
      () => new InMemorySessionRepository(),
      async () => undefined,
    ),
});
