import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { companies, companyEvents, jobs, testimonialRequests, webhookDeliveries, webhookEndpoints } from './db/schema.js';
import { machineIdentity, startPresence, type Presence } from './queue/presence.js';
import { deliverWebhookJob, renderOutputJob } from './queue/definitions.js';
import { defineJob, openQueue, registerJob, type Queue } from './queue/queue.js';
import { resetDatabase, workerDatabase } from './test/database.js';
import { recoverLostJobs } from './worker.js';

/**
 * Recovering a dead worker's job is a call into the jobs service (issue 28): the queue hands the message
 * back, and a media job the queue gave up on is recorded failed ('interrupted') in its `jobs` row, in
 * the transaction that buried the worker. A job with an attempt left stays running for its retry.
 */
const lastAttempt = defineJob({ name: 'test-lost-last', schema: z.object({ jobId: z.uuid() }), retryLimit: 0, retryDelaySeconds: 60, retryBackoff: false, expireInSeconds: 900 });
const oneMore = defineJob({ ...lastAttempt, name: 'test-lost-retry', retryLimit: 1 });
const silent = { error: () => undefined, warn: () => undefined, info: () => undefined };

async function endedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('the worker root recovers a dead worker through the jobs service', () => {
  const queues: Queue[] = [];
  const presences: Presence[] = [];
  const release: (() => void)[] = [];
  let tmpRoot = '';
  afterEach(async () => {
    for (const open of release.splice(0)) open();
    for (const presence of presences.splice(0)) await presence.stop();
    for (const queue of queues.splice(0)) await queue.stop({ drainMs: 1000 });
    if (tmpRoot) await rm(tmpRoot, { recursive: true, force: true });
  });

  it("fails the job row of a message out of attempts as interrupted, and leaves one with an attempt left running", async () => {
    const database = await workerDatabase();
    await resetDatabase(database);
    tmpRoot = await mkdtemp(path.join(os.tmpdir(), 'vr-worker-test-'));
    const [company] = await database.db.insert(companies).values({ name: `Lost ${randomUUID()}` }).returning();
    const [lost, retried] = await database.db
      .insert(jobs)
      .values([
        { companyId: company!.id, kind: 'logo', phase: 'running' },
        { companyId: company!.id, kind: 'logo', phase: 'running' },
      ])
      .returning();

    // A process of this machine that took both messages and died (its pid no longer runs).
    const deadId = randomUUID();
    await database.executeSql(`insert into workers (id, role, host, machine, pid) values ($1, 'worker', $2, $3, $4)`, [
      deadId,
      os.hostname(),
      machineIdentity('any'),
      await endedPid(),
    ]);
    const dead = await openQueue(database, { logger: silent, definitions: [lastAttempt, oneMore], workerId: deadId });
    queues.push(dead);
    const hang = () => new Promise<void>((resolve) => release.push(resolve));
    await dead.send(lastAttempt, { jobId: lost!.id });
    await dead.send(oneMore, { jobId: retried!.id });
    await dead.work([registerJob(lastAttempt, hang), registerJob(oneMore, hang)], { concurrency: 2, pollIntervalMs: 50 });
    for (let i = 0; dead.running() < 2; i++) {
      if (i > 200) throw new Error('the dead process never took its jobs');
      await new Promise((r) => setTimeout(r, 50));
    }

    // A live process's first sweep buries it and recovers its jobs through the worker root.
    const liveId = randomUUID();
    const live = await openQueue(database, { logger: silent, definitions: [lastAttempt, oneMore], workerId: liveId });
    queues.push(live);
    presences.push(
      await startPresence({ id: liveId, database, role: 'worker', tmpRoot, leaseSeconds: 30, logger: silent, recover: recoverLostJobs(live) }),
    );

    const row = async (id: string) => (await database.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
    expect(await row(lost!.id)).toMatchObject({ phase: 'failed', errorReason: 'interrupted' });
    expect((await row(lost!.id)).finishedAt).toBeInstanceOf(Date);
    expect(await row(retried!.id)).toMatchObject({ phase: 'running', errorReason: null });
  });
  it('records render.failed, with its webhook delivery, for a render whose dead worker had no attempt left', async () => {
    const database = await workerDatabase();
    await resetDatabase(database);
    tmpRoot = await mkdtemp(path.join(os.tmpdir(), 'vr-worker-test-'));
    const [company] = await database.db.insert(companies).values({ name: `Lost render ${randomUUID()}` }).returning();
    const [request] = await database.db
      .insert(testimonialRequests)
      .values({ companyId: company!.id, token: randomUUID(), customerName: 'Cleo', customerEmail: 'cleo@client.test', expiresAt: new Date(Date.now() + 86_400_000) })
      .returning();
    const [endpoint] = await database.db
      .insert(webhookEndpoints)
      .values({ companyId: company!.id, url: 'https://hooks.example.com/x', events: ['render.failed'], secret: 'whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0dGVzdHRlc3Q=' })
      .returning();
    const [render] = await database.db.insert(jobs).values({ companyId: company!.id, kind: 'merge', requestId: request!.id, phase: 'running' }).returning();

    // The render's message on its last attempt (the queue's own retry limit, used up), taken by a process that died.
    const deadId = randomUUID();
    await database.executeSql(`insert into workers (id, role, host, machine, pid) values ($1, 'worker', $2, $3, $4)`, [
      deadId,
      os.hostname(),
      machineIdentity('any'),
      await endedPid(),
    ]);
    const lastRender = { ...renderOutputJob, retryLimit: 0 };
    const dead = await openQueue(database, { logger: silent, definitions: [lastRender], workerId: deadId });
    queues.push(dead);
    await dead.send(lastRender, { jobId: render!.id });
    await dead.work([registerJob(lastRender, () => new Promise<void>((resolve) => release.push(resolve)))], { concurrency: 1, pollIntervalMs: 50 });
    for (let i = 0; dead.running() < 1; i++) {
      if (i > 200) throw new Error('the dead process never took its render');
      await new Promise((r) => setTimeout(r, 50));
    }

    const liveId = randomUUID();
    const live = await openQueue(database, { logger: silent, definitions: [lastRender, deliverWebhookJob], workerId: liveId });
    queues.push(live);
    presences.push(await startPresence({ id: liveId, database, role: 'worker', tmpRoot, leaseSeconds: 30, logger: silent, recover: recoverLostJobs(live) }));

    expect((await database.db.select().from(jobs).where(eq(jobs.id, render!.id)))[0]).toMatchObject({ phase: 'failed', errorReason: 'interrupted' });
    const events = await database.db.select().from(companyEvents).where(eq(companyEvents.companyId, company!.id));
    expect(events).toEqual([
      expect.objectContaining({ type: 'render.failed', data: { job_id: render!.id, testimonial_id: request!.id, response_id: null, kind: 'merge', reason: 'interrupted' } }),
    ]);
    const deliveries = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint!.id));
    expect(deliveries).toEqual([expect.objectContaining({ eventId: events[0]!.id, type: 'render.failed', status: 'pending' })]);
    expect(JSON.parse(deliveries[0]!.payload)).toMatchObject({ type: 'render.failed', data: { job_id: render!.id, reason: 'interrupted' } });
    const messages = (await database.executeSql(`select data from pgboss.job where name = 'deliver-webhook'`)) as { rows: { data: { deliveryId: string } }[] };
    expect(messages.rows.map((r) => r.data.deliveryId)).toEqual([deliveries[0]!.id]);
  });
});
