import { historyContract } from './history-contract.js';
import { orchestrationContract } from './orchestration-contract.js';
import { repositoryContract } from './repository-contract.js';
import type { StoreUnderTest } from './store-under-test.js';
import { writersContract } from './writers-contract.js';

export type { StoreUnderTest } from './store-under-test.js';
export { trackedStorage } from './store-under-test.js';

/**
 * Registers the shared behaviour of a session store (DESIGN section 5): the `SessionRepository`
 * contract with its errors, agents, messages, redaction, orchestrator documents, node entries,
 * transitions, interrupts and budgets through real Agents, Graphs and Swarms, corrupt data refused,
 * `writeBatch` atomicity (where present), one writer per session with the stale-view rule, and time
 * travel (history, forks, replay) on Graphs and Swarms.
 */
export function sessionContract(store: StoreUnderTest): void {
  repositoryContract(store);
  orchestrationContract(store);
  historyContract(store);
  writersContract(store);
}
