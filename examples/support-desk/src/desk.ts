/** What every shape of the desk offers the terminal and the tests. */
import type {
  AgentMemory,
  Interrupt,
  InterruptResponseBlock,
  MemoryTarget,
  Model,
  RunBudget,
  SessionManager,
} from '@skein/core';
import type { DeskRole } from './scripted-desk.js';
import type { DeskStore } from './desk-store.js';

export type DeskShape = 'graph' | 'swarm' | 'agent';

/** Progress the desk reports while it works: one line per node start/stop, handoff and tool call; text as it streams. */
export interface DeskProgress {
  line(text: string): void;
  text(delta: string): void;
}

export interface DeskReply {
  text: string;
  /** `completed`, `interrupted` (waiting for approval), or why the turn did not finish. */
  status: string;
  /** What waits for a person (a refund approval) when the status is `interrupted`. */
  interrupts?: readonly Interrupt[];
}

export interface Desk {
  readonly shape: DeskShape;
  /** Handles one customer message. */
  turn(message: string, progress: DeskProgress): Promise<DeskReply>;
  /** Continues the turn on `message` that a crash interrupted, from the session (without repeating what was stored). */
  resume(message: string, progress: DeskProgress): Promise<DeskReply>;
  /** Answers what the last reply waited for (from the session, also after a restart) and continues. */
  answer(responses: InterruptResponseBlock[], progress: DeskProgress): Promise<DeskReply>;
}

export interface DeskParts {
  store: DeskStore;
  modelFor: (role: DeskRole) => Model;
  sessionManager: SessionManager | undefined;
  /** The conversation's budget: every turn of every shape draws from it. */
  budget?: RunBudget | undefined;
  /** The base URL of a refund agent served elsewhere over A2A (`npm run desk:a2a -- --serve refund`): it replaces the local one. */
  refundRemote?: string | undefined;
  /** The key the refund service printed (`[a2a] approver key: ...`): the person at this desk answers its approvals. */
  refundRemoteKey?: string | undefined;
  /** The desk's long-term memory of customers (shared by every node, member or the desk agent). */
  memory?: AgentMemory | undefined;
  /** Whose memory the terminal desk's turns read and write (the web desk's server names it per request). */
  customer?: MemoryTarget | undefined;
}
