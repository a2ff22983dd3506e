import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { resetDatabase, workerDatabase } from '../test/database.js';
import { machineIdentity, startPresence, type Presence } from './presence.js';
import { defineJob, LOST_WORKER_MESSAGE, openQueue, registerJob, type Queue } from './queue.js';

/**
 * The recovery of jobs held by a process that died without stopping, on the test database (PGlite, and
 * PostgreSQL in the 'postgres' project). Real queues take real jobs; a "dead" process is a queue whose
 * handler never returns and whose `workers` row stops being refreshed (another machine), or whose pid
 * no longer runs (this machine).
 */

const job = defineJob({
  name: 'test-recovery',
  schema: z.object({ n: z.number() }),
  retryLimit: 2,
  retryDelaySeconds: 60,
  retryBackoff: false,
  expireInSeconds: 900,
});
const lastChance = defineJob({ ...job, name: 'test-recovery-last', retryLimit: 0 });

interface Logged {
  level: string;
  msg: string;
  obj: object;
}
const recorder = () => {
  const lines: Logged[] = [];
  return {
    lines,
    logger: {
      error: (obj: object, msg: string) => lines.push({ level: 'error', msg, obj }),
      warn: (obj: object, msg: string) => lines.push({ level: 'warn', msg, obj }),
      info: (obj: object, msg: string) => lines.push({ level: 'info', msg, obj }),
    },
  };
};

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

/** A pid that surely ran on this machine and no longer runs. */
async function endedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

interface JobRow {
  id: string;
  state: string;
  retry_count: number;
  start_after: Date;
  output: { message?: string; worker?: string } | null;
}

describe('workers register, heartbeat, and requeue the jobs of dead ones', () => {
  let database: Database;
  let tmpRoot: string;
  const opened: Queue[] = [];
  const presences: Presence[] = [];
  /** Lets the handlers of "dead" processes return at the end. */
  const gates: (() => void)[] = [];

  const rows = async (name = job.name) =>
    (await database.executeSql(`select id, state, retry_count, start_after, output from pgboss.job where name = $1 order by created_on`, [name])).rows as JobRow[];
  const leases = async () => (await database.executeSql('select job_id, worker_id from job_leases order by taken_at', [])).rows as { job_id: string; worker_id: string }[];
  const workerIds = async () => ((await database.executeSql('select id from workers order by started_at', [])).rows as { id: string }[]).map((r) => r.id);

  /** A process that takes one job and never finishes it (until the test ends), registered by hand. */
  async function stuckProcess(options: { machine: string; pid: number; lastSeenSecondsAgo: number; def?: typeof job }) {
    const id = randomUUID();
    await database.executeSql(
      `insert into workers (id, role, host, machine, pid, last_seen) values ($1, 'worker', $2, $3, $4, now() - $5::integer * interval '1 second')`,
      [id, options.machine.split('/')[0], options.machine, options.pid, options.lastSeenSecondsAgo],
    );
    const log = recorder();
    const queue = await openQueue(database, { logger: log.logger, definitions: [options.def ?? job], workerId: id });
    opened.push(queue);
    let runs = 0;
    const gate = new Promise<void>((resolve) => gates.push(resolve));
    await queue.work(
      [
        registerJob(options.def ?? job, async () => {
          runs += 1;
          await gate;
        }),
      ],
      { concurrency: 1, pollIntervalMs: 50 },
    );
    return { id, queue, log, runs: () => runs };
  }

  /** A live process that completes its jobs at once, with its presence. */
  async function liveProcess(options: { leaseSeconds?: number; defs?: (typeof job)[]; work?: boolean } = {}) {
    const id = randomUUID();
    const log = recorder();
    const defs = options.defs ?? [job];
    const queue = await openQueue(database, { logger: log.logger, definitions: defs, workerId: id });
    opened.push(queue);
    const done: number[] = [];
    const presence = await startPresence({
      id,
      database,
      role: 'worker',
      tmpRoot,
      leaseSeconds: options.leaseSeconds ?? 1,
      logger: log.logger,
      recover: queue.recover,
    });
    presences.push(presence);
    if (options.work !== false) {
      await queue.work(
        defs.map((def) => registerJob(def, async (data: { n: number }) => void done.push(data.n))),
        { concurrency: 1, pollIntervalMs: 50 },
      );
    }
    return { id, queue, presence, done, log };
  }

  beforeEach(async () => {
    database = await workerDatabase();
    await resetDatabase(database);
    tmpRoot = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-presence-'));
  });

  afterEach(async () => {
    for (const open of gates.splice(0)) open();
    for (const presence of presences.splice(0)) await presence.stop();
    for (const queue of opened.splice(0)) await queue.stop({ drainMs: 1000 });
    await rm(tmpRoot, { recursive: true, force: true });
  });

  it('records the holder of a running job in the transaction that takes it, and clears it when the job completes', async () => {
    const holder = await stuckProcess({ machine: 'host-a/boot/ns', pid: 1, lastSeenSecondsAgo: 0 });
    await holder.queue.send(job, { n: 1 });
    const [active] = await until('the job to be taken', async () => ((await rows())[0]?.state === 'active' ? rows() : undefined));
    expect(await leases()).toEqual([{ job_id: active!.id, worker_id: holder.id }]);

    for (const open of gates.splice(0)) open();
    const [done] = await until('the job to complete', async () => ((await rows())[0]?.state === 'completed' ? rows() : undefined));
    expect(done!.output).toEqual({ worker: holder.id });
    expect(await leases()).toEqual([]);
  });

  it('requeues the job of a process silent for a lease, as a counted attempt that starts at once; the late holder records nothing', async () => {
    const silent = await stuckProcess({ machine: 'elsewhere/boot/ns', pid: 4242, lastSeenSecondsAgo: 3600 });
    await silent.queue.send(job, { n: 7 });
    const [taken] = await until('the silent process to take the job', async () => ((await rows())[0]?.state === 'active' ? rows() : undefined));

    // A process just connected does not judge others by silence yet (its own contact may be new).
    const live = await liveProcess({ leaseSeconds: 1 });
    expect(await workerIds()).toContain(silent.id);
    expect((await rows())[0]!.state).toBe('active');

    // After a lease of its own contact, its periodic sweep finds the silent one dead and requeues its job,
    // which it takes again at once (not after the 60 s retry delay), as the second attempt, and completes.
    const [done] = await until('the live process to finish the job', async () => ((await rows())[0]?.state === 'completed' ? rows() : undefined), 5000);
    expect(await workerIds()).not.toContain(silent.id);
    expect(live.log.lines.find((l) => l.msg === 'process silent for 1 s: presumed dead')?.obj).toMatchObject({ worker: silent.id, why: 'silent', pid: 4242 });
    expect(live.log.lines.find((l) => l.msg === 'jobs of a dead process handed back to the queue')?.obj).toEqual({
      jobs: [{ id: taken!.id, queue: job.name, state: 'retry' }],
    });
    expect(done!.retry_count).toBe(1);
    expect(done!.output).toEqual({ worker: live.id });
    expect(live.done).toEqual([7]);
    expect(await leases()).toEqual([]);

    // The silent process was only slow: its handler returns now, but the job is no longer its to record.
    for (const open of gates.splice(0)) open();
    await until('the late handler to return', async () => silent.queue.running() === 0);
    expect((await rows())[0]).toMatchObject({ state: 'completed', retry_count: 1, output: { worker: live.id } });
    expect(silent.runs()).toBe(1);
    expect(silent.log.lines.map((l) => l.msg)).toContain(
      'job finished after its lease was lost (this process was presumed dead): its outcome belongs to the new holder',
    );
  });

  it('buries a process of this machine whose pid is gone at once, even with a fresh heartbeat, and fails a job out of attempts', async () => {
    const gone = await stuckProcess({ machine: machineIdentity('any'), pid: await endedPid(), lastSeenSecondsAgo: 0, def: lastChance });
    await gone.queue.send(lastChance, { n: 3 });
    const [taken] = await until('the job to be taken', async () => ((await rows(lastChance.name))[0]?.state === 'active' ? rows(lastChance.name) : undefined));

    // The first sweep runs as the process starts.
    await liveProcess({ defs: [lastChance], leaseSeconds: 30 });
    expect(await workerIds()).not.toContain(gone.id);
    const [failed] = await rows(lastChance.name);
    expect(failed).toMatchObject({ id: taken!.id, state: 'failed', retry_count: 0, output: { message: LOST_WORKER_MESSAGE } });
    expect(await leases()).toEqual([]);
  });

  it('registers again, with a warning, after being presumed dead', async () => {
    const live = await liveProcess({ work: false });
    await database.executeSql('delete from workers where id = $1', [live.id]);
    await live.presence.beat();
    expect(await workerIds()).toContain(live.id);
    expect(live.log.lines.some((l) => l.msg.startsWith('this process was presumed dead'))).toBe(true);
  });

  it("removes the temporary folders of processes that no longer exist, keeps the living ones' and young unnamed ones", async () => {
    const live = await liveProcess({ work: false });
    const other = randomUUID();
    await database.executeSql(`insert into workers (id, role, host, machine, pid) values ($1, 'api', 'elsewhere', 'elsewhere/b/n', 1)`, [other]);
    const dead = randomUUID();
    for (const name of [live.id, other, dead, 'upload-young', 'render-old']) {
      await mkdir(path.join(tmpRoot, name, 'inner'), { recursive: true });
      await writeFile(path.join(tmpRoot, name, 'inner', 'answer-0'), 'partial');
    }
    const hourAgo = new Date(Date.now() - 2 * 3600_000);
    await utimes(path.join(tmpRoot, 'render-old'), hourAgo, hourAgo);

    const swept = await live.presence.sweep();
    expect(swept.removedFolders).toBe(2);
    expect((await readdir(tmpRoot)).sort()).toEqual([live.id, other, 'upload-young'].sort());

    // A clean stop removes its own folder and row.
    await live.presence.stop();
    presences.splice(presences.indexOf(live.presence), 1);
    expect(existsSync(live.presence.tmpDir)).toBe(false);
    expect(await workerIds()).toEqual([other]);
  });
});
