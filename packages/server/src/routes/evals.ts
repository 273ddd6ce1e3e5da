/**
 * Evaluations of a target: `POST /v1/{kind}/{name}/evals` runs the target's eval set (the `evals`
 * option) with `@skein/evals`' runner, each case a conversation of the principal, and answers when it
 * is done with the run and what changed against the previous one; `GET` lists the principal's runs.
 * A target without an eval set is a 404 `no-eval-set`.
 */
import type { Context } from 'hono';
import { evalRunBodySchema } from '../http/eval-schemas.js';
import { ProblemError } from '../http/problem.js';
import { targetRoute, type TargetRoute } from '../http/route-context.js';
import { parseWith, readJsonBody } from '../http/validate.js';
import type { EvalSet } from '../options.js';
import { runEvalSet } from '../runs/run-eval-set.js';
import type { ServerContext } from '../server-context.js';
import { readEvalRuns } from '../store/eval-runs.js';

/** How many past runs `GET` answers (the newest). */
const SHOWN_RUNS = 20;

async function evalSetOf(ctx: ServerContext, route: TargetRoute): Promise<EvalSet> {
  const set = await ctx.options.evals?.({ kind: route.kind, name: route.name });
  if (set) return set;
  throw new ProblemError(
    404,
    'no-eval-set',
    'No eval set',
    `${route.kind}/${route.name} has no eval set; give createServer an evals option ((target) => ({ cases, scorers })), or in the studio export evals from the module (see @skein/studio's README).`,
    { field: 'path.name' },
  );
}

/** `POST /v1/{kind}/{name}/evals`: runs the target's eval set for the principal; 201 with the stored run. */
export async function postEvals(ctx: ServerContext, c: Context): Promise<Response> {
  const route = await targetRoute(ctx, c, 'evaluate');
  const body = parseWith(evalRunBodySchema, await readJsonBody(c.req.raw, ctx.limits), 'body');
  const set = await evalSetOf(ctx, route);
  const only = {
    ...(body.tags ? { tags: body.tags } : {}),
    ...(body.cases ? { cases: body.cases } : {}),
  };
  return c.json({ run: await runEvalSet(ctx, route, set, only) }, 201);
}

/** `GET /v1/{kind}/{name}/evals`: the principal's last runs of the target, oldest first. */
export async function getEvals(ctx: ServerContext, c: Context): Promise<Response> {
  const route = await targetRoute(ctx, c, 'evaluations');
  await evalSetOf(ctx, route);
  const runs = await readEvalRuns(ctx.options.sessions, route.owner, route.kind, route.name);
  return c.json({ runs: runs.slice(-SHOWN_RUNS) });
}
