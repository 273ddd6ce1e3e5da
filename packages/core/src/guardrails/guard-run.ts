/**
 * The guardrails of one invocation: the agent's own and those its caller added (an orchestrator's),
 * with what the turn has done with them so far (retries left, feedback for the next model call, a
 * prompt held back while a parallel check runs, the trip). Exists only when some guardrail applies:
 * an invocation without guardrails has `guards === undefined` and the loop does no guardrail work.
 */
import type { AgentHandle } from '../agent/agent-handle.js';
import type { Principal } from '../doors/principal.js';
import { GuardrailTripped, type GuardrailTrip } from '../errors/guardrail-errors.js';
import type { InvocationState } from '../types/invocation-state.js';
import type { Message } from '../types/messages.js';
import type { CheckScope } from './check-context.js';
import type {
  Guardrail,
  GuardrailOptions,
  GuardrailSet,
  InvocationGuardrails,
  GuardrailWhere,
  InputSubject,
  OutputSubject,
  ToolSubject,
} from './guardrail.js';

/** An agent's own guardrails, resolved at construction (`undefined`: none, and no tool has any). */
export interface AgentGuardrails extends GuardrailSet {
  readonly options: GuardrailOptions | undefined;
  /** True when some tool of the agent has guardrails of its own. */
  readonly toolsHaveGuardrails: boolean;
  /** `inputGuardrails` split once: the blocking ones and the parallel ones. */
  readonly split: InputSplit;
}

/** Input guardrails split: those that run before the model call and those that may run beside it. */
interface InputSplit {
  readonly blocking: readonly Guardrail<InputSubject>[];
  readonly parallel: readonly Guardrail<InputSubject>[];
}

/** Parallel input checks still running beside the first model call. */
export interface InputGate {
  /** Settles with the trip, or `undefined` when they all passed. Never rejects. */
  readonly settled: Promise<GuardrailTripped | undefined>;
  /** True once they all passed. */
  passed: boolean;
}

/** What the invocation itself offers its guardrails. */
export interface GuardHost {
  readonly agent: AgentHandle;
  readonly invocationState: InvocationState;
  signal(): AbortSignal;
  position(): string;
  /** Ends the invocation early (a parallel check blocked while the model call ran). */
  abort(reason: unknown): void;
}

const NONE: readonly never[] = Object.freeze([]);

/** The guardrails of one invocation and what the turn did with them. */
export class GuardRun {
  readonly input: readonly Guardrail<InputSubject>[];
  readonly parallelInput: readonly Guardrail<InputSubject>[];
  readonly output: readonly Guardrail<OutputSubject>[];
  readonly tool: readonly Guardrail<ToolSubject>[];
  /** True when a tool's own guardrails may apply. */
  readonly toolsHaveGuardrails: boolean;
  readonly path: string;
  readonly principal: Principal | undefined;
  readonly maxRetries: number;
  readonly windowChars: number;
  retries = 0;
  /** The guardrail feedback the next model call gets (after a `retry`). */
  feedback: string | undefined;
  /** The prompt held back (sent to the model, not yet in the history) while parallel input checks run. */
  unsent: Message[] | undefined;
  gate: InputGate | undefined;
  /** The trip that ends the turn, once one fired. */
  tripped: GuardrailTripped | undefined;
  readonly #host: GuardHost;
  readonly #scopes: Partial<Record<GuardrailWhere, PlaceScope>> = {};

  constructor(
    own: AgentGuardrails | undefined,
    added: InvocationGuardrails | undefined,
    host: GuardHost,
    principal: Principal | undefined,
  ) {
    const split =
      own && !added?.inputGuardrails?.length
        ? own.split
        : splitInput(join(added?.inputGuardrails, own?.inputGuardrails));
    this.input = split.blocking;
    this.parallelInput = split.parallel;
    this.output = join(added?.outputGuardrails, own?.outputGuardrails);
    this.tool = join(added?.toolGuardrails, own?.toolGuardrails);
    this.toolsHaveGuardrails = own?.toolsHaveGuardrails === true;
    this.path = added?.path ?? host.agent.name;
    this.principal = principal;
    const options = { ...added?.options, ...own?.options };
    this.maxRetries = options.maxRetries ?? 2;
    this.windowChars = options.windowChars ?? 200;
    this.#host = host;
  }

  /** What the checks at `where` share (one object per place and invocation, made when first needed). */
  scopeAt(where: GuardrailWhere): CheckScope {
    this.#scopes[where] ??= new PlaceScope(where, this, this.#host);
    return this.#scopes[where];
  }

  /** Records the trip that ends the turn (the first one wins) and returns it. */
  trip(trip: Omit<GuardrailTrip, 'path'>, cause?: unknown): GuardrailTripped {
    this.tripped ??= new GuardrailTripped({ ...trip, path: this.path, ...(cause === undefined ? {} : { cause }) });
    return this.tripped;
  }

  /** Ends the invocation early because `tripped` (a parallel check blocked while the model ran). */
  abort(tripped: GuardrailTripped): void {
    this.#host.abort(tripped);
  }
}

/**
 * The scope of the checks at one place of one invocation: a class, so that an invocation makes no
 * closure for its checks (its signal and position are read through the host only when a check asks).
 */
class PlaceScope implements CheckScope {
  readonly where: GuardrailWhere;
  readonly #run: GuardRun;
  readonly #host: GuardHost;

  constructor(where: GuardrailWhere, run: GuardRun, host: GuardHost) {
    this.where = where;
    this.#run = run;
    this.#host = host;
  }

  get agent(): AgentHandle {
    return this.#host.agent;
  }

  get path(): string {
    return this.#run.path;
  }

  get principal(): Principal | undefined {
    return this.#run.principal;
  }

  get invocationState(): InvocationState {
    return this.#host.invocationState;
  }

  signal(): AbortSignal {
    return this.#host.signal();
  }

  position(): string {
    return this.#host.position();
  }
}

/** The guardrails of an invocation, or `undefined` when none applies (no guardrail work at all). */
export function guardRunFor(
  own: AgentGuardrails | undefined,
  added: InvocationGuardrails | undefined,
  host: GuardHost,
  principal: Principal | undefined,
): GuardRun | undefined {
  if (!own && !hasAny(added)) return undefined;
  return new GuardRun(own, added, host, principal);
}

/** An agent's own guardrails from its options and tools, or `undefined` when it has none. */
export function agentGuardrails(
  set: GuardrailSet & { guardrailOptions?: GuardrailOptions | undefined },
  tools: readonly { readonly guardrails?: readonly unknown[] | undefined }[] | undefined,
): AgentGuardrails | undefined {
  const toolsHaveGuardrails = tools?.some((t) => (t.guardrails?.length ?? 0) > 0) === true;
  if (!hasAny(set) && !toolsHaveGuardrails) return undefined;
  return {
    inputGuardrails: set.inputGuardrails ?? NONE,
    split: splitInput(set.inputGuardrails ?? NONE),
    outputGuardrails: set.outputGuardrails ?? NONE,
    toolGuardrails: set.toolGuardrails ?? NONE,
    options: set.guardrailOptions,
    toolsHaveGuardrails,
  };
}

function splitInput(input: readonly Guardrail<InputSubject>[]): InputSplit {
  if (!input.some((g) => g.parallel === true)) return { blocking: input, parallel: NONE };
  return { blocking: input.filter((g) => g.parallel !== true), parallel: input.filter((g) => g.parallel === true) };
}

/** `a` then `b`, copied only when both have some. */
function join<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): readonly T[] {
  if (!a || a.length === 0) return b ?? NONE;
  return !b || b.length === 0 ? a : [...a, ...b];
}

function hasAny(set: GuardrailSet | undefined): boolean {
  if (!set) return false;
  return (
    (set.inputGuardrails?.length ?? 0) > 0 ||
    (set.outputGuardrails?.length ?? 0) > 0 ||
    (set.toolGuardrails?.length ?? 0) > 0
  );
}
