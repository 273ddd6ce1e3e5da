export { Memory } from './memory.js';
export type { MemoryOptions, ObserveOptions, RecallOptions, WorkingMemoryOptions } from './memory-options.js';
export { InMemoryMemoryStore } from './in-memory-store.js';
export { mergePatch } from './merge-patch.js';
export { MEMORY_HEADING } from './render.js';
export { OBSERVER_PROMPT } from './observer.js';
