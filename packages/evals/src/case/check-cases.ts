/**
 * Validates cases against the case schema and the scorers' expectation schemas. A bad case becomes a
 * problem that names the case, where it came from and the field; the other cases are unaffected.
 */
import type { JsonObject } from '@skein/core';
import type { Scorer } from '../scorers/scorer.js';
import type { IssueLike, SchemaLike } from './eval-case.js';
import type { CaseInput, EvalCase, EvalTurn } from './eval-case.js';
import { caseSchema } from './case-schema.js';
import type { ZodNamespace } from '../scorers/zod-namespace.js';

/** A case as it arrived: its value, where it came from (`cases.jsonl line 4`, `cases[3]`), and a parse error. */
export interface CaseSource {
  value: unknown;
  origin: string;
  /** The line could not even be read as JSON. */
  error?: string;
}

export type CheckedCase =
  | { ok: true; evalCase: EvalCase; origin: string }
  | { ok: false; id: string; origin: string; problem: string };

const issuesText = (prefix: string, issues: readonly IssueLike[]): string =>
  issues
    .map((i) => `${[prefix, ...i.path.map(String)].filter(Boolean).join('.') || '(case)'}: ${i.message}`)
    .join('; ');

type SchemaBuilder = (z: ZodNamespace) => SchemaLike;
/** Schemas built from builders, kept for the process: zod compiles a schema on its first use, which costs more than using it. */
const built = new WeakMap<SchemaBuilder, SchemaLike>();
const buildOnce = (builder: SchemaBuilder, z: ZodNamespace): SchemaLike => {
  let schema = built.get(builder);
  if (!schema) built.set(builder, (schema = builder(z)));
  return schema;
};

/** Each scorer's expectation schema. */
function schemasOf(scorers: readonly Scorer[], z: ZodNamespace): Map<Scorer, SchemaLike | undefined> {
  return new Map(scorers.map((s) => [s, typeof s.schema === 'function' ? buildOnce(s.schema, z) : s.schema]));
}

/** Why `expect` and `thresholds` do not fit the scorers, or `undefined`. */
function scorerProblems(
  c: CaseInput,
  scorers: readonly Scorer[],
  schemas: Map<Scorer, SchemaLike | undefined>,
): string | undefined {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(c.expect ?? {})) {
    const readers = scorers.filter((s) => s.expects === key);
    if (readers.length === 0) {
      const read = [...new Set(scorers.flatMap((s) => (s.expects ? [s.expects] : [])))];
      problems.push(`expect.${key}: no scorer reads it (scorers read: ${read.join(', ') || 'nothing'})`);
      continue;
    }
    const schema = readers.map((s) => schemas.get(s)).find((x) => x !== undefined);
    const parsed = schema?.safeParse(value);
    if (parsed && !parsed.success) problems.push(issuesText(`expect.${key}`, parsed.error?.issues ?? []));
  }
  const names = scorers.map((s) => s.name);
  for (const key of Object.keys(c.thresholds ?? {}))
    if (!names.includes(key))
      problems.push(`thresholds.${key}: no scorer has this name (scorers: ${names.join(', ')})`);
  return problems.length ? problems.join('; ') : undefined;
}

const turnsOf = (c: CaseInput): EvalTurn[] =>
  c.turns
    ? c.turns.map((t) => (typeof t === 'string' ? { input: t } : t))
    : [{ input: c.input ?? '', ...(c.answers ? { answers: c.answers } : {}) }];

/** Checks every case; bad ones come back with a message naming the case, its origin and the field. */
export async function checkCases(sources: readonly CaseSource[], scorers: readonly Scorer[]): Promise<CheckedCase[]> {
  const { z } = await import('zod');
  const schema = buildOnce(caseSchema, z) as ReturnType<typeof caseSchema>;
  const schemas = schemasOf(scorers, z);
  const seen = new Map<string, string>();
  return sources.map((source, index): CheckedCase => {
    const raw = source.value as { id?: unknown } | null;
    const id = typeof raw?.id === 'string' && raw.id ? raw.id : `case-${index + 1}`;
    const bad = (problem: string): CheckedCase => ({
      ok: false,
      id,
      origin: source.origin,
      problem: `case "${id}" (${source.origin}): ${problem}`,
    });
    if (source.error) return bad(source.error);
    const parsed = schema.safeParse(source.value);
    if (!parsed.success) return bad(issuesText('', parsed.error.issues));
    const c = parsed.data as CaseInput;
    const problem = scorerProblems(c, scorers, schemas);
    if (problem) return bad(problem);
    const first = seen.get(c.id);
    if (first) return bad(`id: "${c.id}" is already the id of the case from ${first}`);
    seen.set(c.id, source.origin);
    const evalCase: EvalCase = {
      id: c.id,
      turns: turnsOf(c),
      tags: c.tags ?? [],
      expect: { ...(source.value as CaseInput).expect },
      thresholds: c.thresholds ?? {},
      metadata: (c.metadata ?? {}) as JsonObject,
    };
    return { ok: true, evalCase, origin: source.origin };
  });
}
