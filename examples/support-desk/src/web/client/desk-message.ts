/** The messages the customer page holds: the AI SDK's `UIMessage` with the data parts `@skein/server` sends. */
import type { UIMessage } from 'ai';

/** Data parts by name (`data-<name>` on the wire). */
type DeskDataParts = {
  /** Who speaks next: `[]` the agent itself, `["billing"]` a graph node or swarm member. */
  'skein-speaker': { path: string[] };
  'skein-node': { path: string[]; status: string; error?: string };
  'skein-transition': {
    path: string[];
    seq: number;
    from: string | null;
    to: string | null;
    kind: string;
    reason?: string;
  };
  'skein-turn': {
    turn: number;
    attempt: number;
    resumed: boolean;
    kind: string;
    name: string;
  };
  'skein-result': { turn: number; status: string; failureReason?: string };
  'skein-interrupt': {
    id: string;
    name: string;
    reason: unknown;
    source: string;
  };
  'skein-retry': { path: string[]; attempt: number };
  /** A guardrail blocked the turn: which, where (`input`, `output`, `tool`), why, and in which node. */
  'skein-guardrail': {
    guardrail: string;
    where: string;
    reason: string;
    path: string;
    tool?: string;
    speaker: string[];
  };
  /** A guardrail took back what a speaker's answer had shown (in a graph or swarm; an agent's step is reset instead). */
  'skein-retract': {
    path: string[];
    part: string;
    guardrail: string;
    action: string;
  };
  'skein-budget': unknown;
  /** What an agent used as a tool does (`path` ends with its name), updated in place as it goes. */
  'skein-nested': {
    path: string[];
    kind: string;
    text?: string;
    tool?: string;
    input?: unknown;
    status?: string;
  };
  'skein-resumed': { turn: number; attempt: number; detail: string };
  'skein-server': { stopping: boolean; detail: string };
};

export type DeskMessage = UIMessage<unknown, DeskDataParts>;
export type DeskPart = DeskMessage['parts'][number];
