import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { resetDatabase, workerDatabase } from '../test/database.js';
import { defineJob, openQueue, registerJob, type Queue } from './queue.js';

const job = defineJob({
  name: 'test-outage',
  schema: z.object({ n: z.number() }),
  retryLimit: 2,
  retryDelaySeconds: 60,
  retryBackoff: false,
  expireInSeconds: 900,
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/**
 * The test database behind a switch: while `down`, every statement of the queue fails as a refused
 * connection does (the queue's own SQL: taking jobs, leases, outcomes).
 */
function unreliable(database: Database) {
  const state = { down: false };
  const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  const wrapped: Database = {
    ...database,
    executeSql: (text, values) => (state.down ? Promise.reject(refused()) : database.executeSql(text, values)),
    transaction: (fn) => (state.down ? Promise.reject(refused()) : database.transaction(fn)),
  };
  return { wrapped, state };
}

describe('a job that ends while the database is unreachable', () => {
  let queue: Queue | undefined;
  afterEach(async () => {
    await queue?.stop({ drainMs: 1000 });
  });

  it('records its outcome once the database is back, instead of leaving it active until it expires', async () => {
    const database = await workerDatabase();
    await resetDatabase(database);
    const { wrapped, state } = unreliable(database);
    const lines: { level: string; msg: string }[] = [];
    const logger = {
      error: (_: object, msg: string) => lines.push({ level: 'error', msg }),
      warn: (_: object, msg: string) => lines.push({ level: 'warn', msg }),
      info: (_: object, msg: string) => lines.push({ level: 'info', msg }),
    };
    const workerId = randomUUID();
    queue = await openQueue(wrapped, { logger, definitions: [job], workerId });
    let finish: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    let runs = 0;
    await queue.work([registerJob(job, async () => void (runs += 1, await gate))], { concurrency: 1, pollIntervalMs: 50 });
    const id = await queue.send(job, { n: 1 });
    const row = async () =>
      (await database.executeSql('select state, retry_count from pgboss.job where id = $1', [id])).rows[0] as { state: string; retry_count: number } | undefined;
    await until('the job to be taken', async () => (await row())?.state === 'active');

    // The database goes away; the job's work ends meanwhile.
    state.down = true;
    finish();
    await sleep(1500);
    expect(await row()).toEqual({ state: 'active', retry_count: 0 });

    // Back: the outcome is recorded (completed, not retried), the lease released.
    state.down = false;
    await until('the outcome to be recorded', async () => (await row())?.state === 'completed', 10_000);
    expect(await row()).toEqual({ state: 'completed', retry_count: 0 });
    expect((await database.executeSql('select * from job_leases', [])).rows).toEqual([]);
    expect(runs).toBe(1);
    expect(lines.filter((l) => l.msg === 'job completed')).toHaveLength(1);
    expect(lines.some((l) => l.msg === 'could not record the outcome of a job')).toBe(false);
  });
});
