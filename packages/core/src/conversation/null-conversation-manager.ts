import { BaseConversationManager } from './conversation-manager.js';

/** Leaves the history as it is; a context overflow surfaces as an error. */
export class NullConversationManager extends BaseConversationManager {
  applyManagement(): void {}

  reduceContext(): boolean {
    return false;
  }
}
