/**
 * The interrupt ids the server hands out: core's id (`tooluse_2#approval`) with the tag of the turn
 * that raised it (`tooluse_2#approval~Xy3…`), a random value stored with the turn. An answer must
 * name an interrupt of the turn that waits, in the conversation it waits in: an answer replayed from
 * an earlier turn, or an id taken from another conversation (where core's id may well be the same),
 * does not fit, and is refused with the pending list. Turns stored before tags existed keep core's ids.
 */
import { randomBytes } from 'node:crypto';
import type { Interrupt, JsonValue } from '@skein/core';

const SEPARATOR = '~';

const TAG_BYTES = 9;
const POOL_BYTES = TAG_BYTES * 256;
let pool: Buffer | undefined;
let used = POOL_BYTES;

/** A new turn's tag: 9 random bytes, base64url (drawn from a pool: one call of the random source per 256 turns). */
export function newTurnTag(): string {
  if (!pool || used + TAG_BYTES > POOL_BYTES) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  used += TAG_BYTES;
  return pool.toString('base64url', used - TAG_BYTES, used);
}

/** The id a client sees for core's `id` in a turn tagged `tag`. */
function publicId(id: string, tag: string | undefined): string {
  return tag === undefined ? id : `${id}${SEPARATOR}${tag}`;
}

/** `interrupts` as clients see them: ids carrying the turn's tag. */
export function publicInterrupts(interrupts: readonly Interrupt[], turn: { tag?: string } | undefined): Interrupt[] {
  const tag = turn?.tag;
  if (tag === undefined) return [...interrupts];
  return interrupts.map((i) => ({ ...i, id: publicId(i.id, tag) }));
}

/** The answers of an answers prompt keyed as clients saw the interrupts (core's ids with the answered turn's tag). */
export function publicAnswers(prompt: {
  answers: Record<string, JsonValue>;
  answered?: string;
}): Record<string, JsonValue> {
  const tag = prompt.answered;
  if (tag === undefined) return prompt.answers;
  return Object.fromEntries(Object.entries(prompt.answers).map(([id, answer]) => [publicId(id, tag), answer]));
}

/** Core's id for a public id of the turn tagged `tag`; `undefined` when it is not one of that turn's. */
export function coreIdOf(id: string, tag: string | undefined): string | undefined {
  if (tag === undefined) return id;
  const at = id.lastIndexOf(SEPARATOR);
  if (at < 0 || id.slice(at + 1) !== tag) return undefined;
  return id.slice(0, at);
}
