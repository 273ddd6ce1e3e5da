export { Swarm } from './swarm.js';
export type { SwarmEvent } from './swarm.js';
export type { SwarmHandoffEvent } from './swarm-event.js';
export type { HandoffDetails } from './handoff-details.js';
export type { SwarmOptions } from './swarm-options.js';
export type { SwarmResult } from './swarm-result.js';
export { TransferInput, defaultTransfer } from './transfer-input.js';
export { TRANSFER_OPENER } from './handoff-note.js';
