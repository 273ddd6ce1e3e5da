/** The zod schema of a case as written (built on first use, so importing the package does not load zod). */
import type { ZodNamespace } from '../scorers/zod-namespace.js';
import { jsonObject, jsonValue } from './json-check.js';

/** What a case id may be: it becomes part of a session id. */
export const CASE_ID = /^[A-Za-z0-9][A-Za-z0-9_.@=+-]{0,119}$/;

export const caseSchema = (z: ZodNamespace) => {
  const answer = z
    .object({
      name: z.string().optional(),
      tool: z.string().optional(),
      approve: z.boolean().optional(),
      message: z.string().optional(),
      response: jsonValue(z).optional(),
    })
    .strict()
    .refine((a) => (a.approve === undefined) !== (a.response === undefined), 'give either approve or response');
  const turn = z.object({ input: z.string().min(1), answers: z.array(answer).optional() }).strict();
  return z
    .object({
      id: z
        .string()
        .regex(CASE_ID, 'use 1-120 characters from A-Z a-z 0-9 _ . @ = + - starting with a letter or digit')
        .refine((id) => !id.includes('..'), 'must not contain ".."'),
      input: z.string().min(1).optional(),
      answers: z.array(answer).optional(),
      turns: z
        .array(z.union([z.string().min(1), turn]))
        .min(1)
        .optional(),
      tags: z.array(z.string()).optional(),
      expect: z.record(z.string(), z.unknown()).optional(),
      thresholds: z.record(z.string(), z.number().min(0).max(1)).optional(),
      metadata: jsonObject(z).optional(),
    })
    .strict()
    .superRefine((c, ctx) => {
      if ((c.input === undefined) === (c.turns === undefined))
        ctx.addIssue({ code: 'custom', path: ['input'], message: 'give either input (one turn) or turns' });
      if (c.answers !== undefined && c.input === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['answers'],
          message: 'answers go with input; inside turns, give each turn its answers',
        });
    });
};
