export { startStudio } from './start-studio.js';
export type { RunningStudio, StudioOptions } from './start-studio.js';
export type { StudioTargets } from './load-targets.js';
export type { StudioStore } from './open-sessions.js';
export { watchStudio } from './watch-studio.js';
export type { WatchStudioOptions } from './watch-studio.js';
