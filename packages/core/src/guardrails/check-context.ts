import type { AgentHandle } from '../agent/agent-handle.js';
import type { Principal } from '../doors/principal.js';
import { canonicalJson, hash } from '../loop/idempotency-key.js';
import type { InvocationState } from '../types/invocation-state.js';
import type { GuardrailContext, GuardrailSubject, GuardrailWhere } from './guardrail.js';

/** What every check of one place of one invocation shares. */
export interface CheckScope {
  readonly where: GuardrailWhere;
  readonly agent: AgentHandle | undefined;
  readonly path: string;
  readonly principal: Principal | undefined;
  readonly invocationState: InvocationState;
  /** The invocation's signal (made on first read). */
  signal(): AbortSignal;
  /** Who checks (the invocation's idempotency scope) and where in the conversation (messages so far, removed ones included). */
  position(): string;
}

/** The context of one check. A class so that its signal and idempotency key cost nothing until a guardrail reads them. */
export class CheckContext implements GuardrailContext {
  readonly #scope: CheckScope;
  readonly #guardrail: string;
  readonly #subject: GuardrailSubject;
  #key: string | undefined;

  constructor(scope: CheckScope, guardrail: string, subject: GuardrailSubject) {
    this.#scope = scope;
    this.#guardrail = guardrail;
    this.#subject = subject;
  }

  get where(): GuardrailWhere {
    return this.#scope.where;
  }

  get agent(): AgentHandle | undefined {
    return this.#scope.agent;
  }

  get path(): string {
    return this.#scope.path;
  }

  get principal(): Principal | undefined {
    return this.#scope.principal;
  }

  get invocationState(): InvocationState {
    return this.#scope.invocationState;
  }

  get signal(): AbortSignal {
    return this.#scope.signal();
  }

  get idempotencyKey(): string {
    this.#key ??= hash([this.#scope.position(), 'guardrail', this.#guardrail, this.where, subjectText(this.#subject)]);
    return this.#key;
  }
}

/** What identifies a subject for its key: its text, or the tool call (and result) it is. */
function subjectText(subject: GuardrailSubject): string {
  if ('tool' in subject) return canonicalJson(subject);
  return `${'final' in subject ? String(subject.final) : 'input'}:${subject.text}`;
}
