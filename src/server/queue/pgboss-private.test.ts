import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { resetDatabase, workerDatabase } from '../test/database.js';
import { requeueNow } from './pgboss-private.js';
import { defineJob, openQueue, type Queue } from './queue.js';

/**
 * The one write into pg-boss's own table (decision 176) relies on its columns, its states and their
 * order, and on the rule by which a fetch counts a retry. A pg-boss upgrade that changes any of them
 * fails here.
 */
const job = defineJob({
  name: 'test-private',
  schema: z.object({ n: z.number() }),
  retryLimit: 2,
  retryDelaySeconds: 600,
  retryBackoff: false,
  expireInSeconds: 900,
});

describe("pg-boss's job table, as requeueNow relies on it", () => {
  let queue: Queue | undefined;
  afterEach(async () => {
    await queue?.stop({ drainMs: 1000 });
    queue = undefined;
  });

  it('has the columns and the ordered states it writes', async () => {
    const database = await workerDatabase();
    queue = await openQueue(database, { logger: console, definitions: [job], workerId: randomUUID() });
    const { rows: columns } = await database.executeSql(
      `select column_name, data_type from information_schema.columns where table_schema = 'pgboss' and table_name = 'job' order by column_name`,
      [],
    );
    expect(columns).toEqual(
      expect.arrayContaining([
        { column_name: 'id', data_type: 'uuid' },
        { column_name: 'name', data_type: 'text' },
        { column_name: 'state', data_type: 'USER-DEFINED' },
        { column_name: 'started_on', data_type: 'timestamp with time zone' },
        { column_name: 'start_after', data_type: 'timestamp with time zone' },
        { column_name: 'retry_count', data_type: 'integer' },
      ]),
    );
    // Order matters: pg-boss compares states (`state < 'active'` is waiting).
    const { rows: states } = await database.executeSql(
      `select e.enumlabel from pg_enum e join pg_type t on t.oid = e.enumtypid join pg_namespace n on n.oid = t.typnamespace
        where n.nspname = 'pgboss' and t.typname = 'job_state' order by e.enumsortorder`,
      [],
    );
    expect((states as { enumlabel: string }[]).map((s) => s.enumlabel)).toEqual(['created', 'retry', 'active', 'completed', 'cancelled', 'failed']);
  });

  it('hands an active job back uncounted, and lets a failed attempt retry at once', async () => {
    const database = await workerDatabase();
    await resetDatabase(database);
    queue = await openQueue(database, { logger: console, definitions: [job], workerId: randomUUID() });
    const { boss } = queue;
    const id = (await queue.send(job, { n: 1 }))!;
    const fetchOne = async () => (await boss.fetch(job.name, { batchSize: 1, includeMetadata: true }))[0];

    const first = await fetchOne();
    expect(first).toMatchObject({ id, state: 'active', retryCount: 0 });
    expect(await requeueNow(database.executeSql, 'pgboss', job.name, [id])).toBe(1);
    expect(await boss.getJobById(job.name, id)).toMatchObject({ state: 'created', startedOn: null });
    // Taken again: the hand-back did not count as an attempt.
    expect(await fetchOne()).toMatchObject({ id, retryCount: 0 });

    await boss.fail(job.name, id, { message: 'lost' });
    const failed = await boss.getJobById(job.name, id);
    expect(failed).toMatchObject({ state: 'retry' });
    expect(failed!.startAfter.getTime()).toBeGreaterThan(Date.now() + 60_000);
    expect(await fetchOne()).toBeUndefined();
    expect(await requeueNow(database.executeSql, 'pgboss', job.name, [id])).toBe(1);
    // Startable at once, and this fetch counts the retry.
    expect(await fetchOne()).toMatchObject({ id, retryCount: 1 });

    // A job in no waiting or active state is left alone.
    await boss.complete(job.name, id);
    expect(await requeueNow(database.executeSql, 'pgboss', job.name, [id])).toBe(0);
  });
});
