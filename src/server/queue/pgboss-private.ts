import type { ExecuteSql } from '../db/client.js';

/**
 * The one place the product writes pg-boss's own table (decision 176). pg-boss 10 has no public call
 * for either of these, and both matter:
 *
 * - a job interrupted by a shutdown goes back to waiting as if never started: `started_on` cleared, so
 *   that its next fetch does not count a retry (pg-boss's `cancel` + `resume` would keep `started_on`
 *   and so spend an attempt of a job that never failed);
 * - a job recovered from a dead process (failed by pg-boss's own `fail`, now 'retry') may start at once
 *   instead of after its retry delay: its worker is known dead, nothing is gained by waiting.
 *
 * "At once" is a second in the past: pg-boss fetches `start_after < now()`, and PGlite's clock can give
 * two statements a millisecond apart the same `now()`.
 *
 * `pgboss-private.test.ts` checks the columns, the states and the fetch rule this relies on, so that a
 * pg-boss upgrade that changes them fails a test instead of a deployment.
 */
export async function requeueNow(executeSql: ExecuteSql, schema: string, name: string, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  const { rows } = await executeSql(
    `update ${schema}.job
        set state = case when state = 'active' then 'created'::${schema}.job_state else state end,
            started_on = case when state = 'active' then null else started_on end,
            start_after = now() - interval '1 second'
      where name = $1 and id = any($2::uuid[]) and state in ('active', 'retry')
      returning id`,
    [name, ids],
  );
  return rows.length;
}
