/**
 * The zod schemas of the evals routes (`POST /v1/{kind}/{name}/evals`, `GET` the same): they
 * validate the run's body and describe both in `GET /openapi.json`.
 */
import { z } from 'zod';

const caseId = z
  .string()
  .min(1, 'is empty; name a case id of the eval set')
  .max(128, 'is longer than 128 characters; case ids are shorter');

/** `POST /v1/{kind}/{name}/evals`: which cases to run (all by default). */
export const evalRunBodySchema = z.strictObject({
  tags: z
    .array(z.string().min(1, 'is empty; name a tag').max(100, 'is longer than 100 characters'))
    .max(50, 'lists more than 50 tags')
    .optional()
    .meta({ description: 'Only the cases carrying one of these tags.', example: ['graph'] }),
  cases: z
    .array(caseId)
    .max(1000, 'lists more than 1,000 cases')
    .optional()
    .meta({ description: 'Only these cases (by id); with `tags`, a case either names is run.' }),
});

/** One case of a run, as evals' summary gives it. */
const caseSummarySchema = z.looseObject({
  id: z.string(),
  status: z.enum(['passed', 'failed', 'flaky', 'notRun', 'invalid']),
  reasons: z.record(z.string(), z.string()).meta({ description: 'Per scorer, why (from a failing run).' }),
  sessionIds: z
    .array(z.string())
    .meta({ description: "The case's conversations (one per repeat): GET .../conversations/{id} reads each." }),
});

/** One stored run. */
const evalRunSchema = z.looseObject({
  id: z.string(),
  evaluation: z.string().meta({ description: "evaluate()'s name of the run: its case conversations start with it." }),
  startedAt: z.string(),
  endedAt: z.string(),
  summary: z.looseObject({
    passed: z.boolean(),
    counts: z.record(z.string(), z.number()),
    cases: z.array(caseSummarySchema),
  }),
  changes: z
    .looseObject({
      previous: z.string(),
      fixed: z.array(z.string()),
      newlyFailing: z.array(z.string()),
    })
    .optional()
    .meta({
      description:
        'Against the previous run of the target: cases fixed, newly failing, regressed, improved, added, removed.',
    }),
});

/** `POST /v1/{kind}/{name}/evals` answers 201 with this. */
export const evalRunResultSchema = z.object({ run: evalRunSchema });

/** `GET /v1/{kind}/{name}/evals`. */
export const evalRunsSchema = z.object({
  runs: z.array(evalRunSchema).meta({ description: "The principal's runs of the target, oldest first (the last 20)." }),
});
