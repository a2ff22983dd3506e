import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../../src/server/test/s3-server.js';
import { cleanUp, scratchDatabase, signUpCompany, sleep, startServer, until, type ScratchDatabase, type ServerProcess } from './support.js';

interface Hit {
  id: string;
  verified: boolean;
  type: string;
  /** What the receiver answered: 200, or 'held' while it keeps the request open. */
  answer: number | 'held';
  /** The connection was cut before an answer (the sender died). */
  cut: boolean;
}

/**
 * A receiver on loopback that verifies each request with the standardwebhooks library, keeps the first
 * one open (never answers it) and answers 200 to the others.
 */
async function holdingReceiver() {
  const hits: Hit[] = [];
  let secret = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = { 'webhook-id': String(req.headers['webhook-id']), 'webhook-timestamp': String(req.headers['webhook-timestamp']), 'webhook-signature': String(req.headers['webhook-signature']) };
      let hit: Hit;
      try {
        const event = new Webhook(secret).verify(body, headers) as { type: string };
        hit = { id: headers['webhook-id'], verified: true, type: event.type, answer: 200, cut: false };
      } catch {
        hit = { id: headers['webhook-id'], verified: false, type: '', answer: 200, cut: false };
      }
      hits.push(hit);
      if (hits.length === 1) {
        hit.answer = 'held';
        res.on('close', () => (hit.cut = !res.writableEnded));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    hits,
    setSecret: (s: string) => (secret = s),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Issue 32's quality bar, decision 221: a delivery survives its worker being killed mid-send. The
 * receiver holds the first request open; the worker sending it is killed (SIGKILL); a new worker finds it
 * dead, releases the delivery and sends it again, with the same webhook-id, well before the dead
 * process's hold would have expired; the receiver verifies it and answers 200; the delivery log shows it
 * delivered, and nothing is sent after the 200.
 */
describe('a webhook delivery across a worker killed mid-send', () => {
  let scratch: ScratchDatabase;
  let s3: TestS3Server;
  let receiver: Awaited<ReturnType<typeof holdingReceiver>>;
  const procs: ServerProcess[] = [];

  beforeAll(async () => {
    scratch = await scratchDatabase();
    s3 = await startS3Server();
    receiver = await holdingReceiver();
  });
  afterAll(async () => {
    await cleanUp(procs);
    await receiver?.close();
    await scratch?.drop();
    await s3?.close();
  });

  const start = async (role: 'api' | 'worker') => {
    const proc = await startServer({ role, databaseUrl: scratch.url, env: { ...s3.env, WEBHOOKS_ALLOW_PRIVATE: 'on', DRAFTS: 'off' } });
    procs.push(proc);
    return proc;
  };
  const count = async (sql: string, values: unknown[] = []) => Number((await scratch.db.query<{ n: string }>(sql, values)).rows[0]!.n);

  it('is sent again with the same webhook-id by the next worker, verified, delivered once, with no duplicate after the 200', async () => {
    const api = await start('api');
    const victim = await start('worker');
    const me = await signUpCompany(api, scratch.db);

    const created = await me.call(api, 'POST', '/api/webhooks', { url: receiver.url, events: ['render.ready', 'render.failed'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const endpointId = String(created.body.id);
    receiver.setSecret(String(created.body.secret));

    const test = await me.call(api, 'POST', `/api/webhooks/${endpointId}/test`);
    expect(test.status, JSON.stringify(test.body)).toBe(202);
    const deliveryId = String(test.body.id);

    // The victim is sending: the receiver holds the request, the delivery row is held by the victim.
    await until('the receiver to hold the first request', async () => receiver.hits.length === 1, 30_000, 50);
    expect(receiver.hits[0]).toMatchObject({ id: deliveryId, verified: true, type: 'webhook.test', answer: 'held' });
    expect(await count(`select count(*) n from webhook_deliveries where id = $1 and status = 'pending' and locked_until > now()`, [deliveryId])).toBe(1);

    await victim.kill();
    const killedAt = Date.now();
    await until('the cut connection to be seen', async () => receiver.hits[0]!.cut, 10_000, 50);

    // A new worker finds the victim dead at start and sends the delivery again.
    const next = await start('worker');
    await until('the delivery to be sent again', async () => receiver.hits.length >= 2, 60_000, 50);
    // Well before the victim's hold (timeout + 20 s = 30 s) would have expired: released with the dead process.
    expect(Date.now() - killedAt).toBeLessThan(25_000);
    expect(receiver.hits[1]).toMatchObject({ id: deliveryId, verified: true, type: 'webhook.test', answer: 200 });
    const handedBack = next.lines().filter((l) => l.msg === 'jobs of a dead process handed back to the queue');
    expect(handedBack.flatMap((l) => (l.jobs as { queue: string }[]).map((j) => j.queue))).toContain('deliver-webhook');

    // The delivery log: delivered, one recorded attempt answered 200 (the cut one recorded nothing).
    const log = await until(
      'the delivery log to show it delivered',
      async () => {
        const res = await me.call(api, 'GET', `/api/webhooks/${endpointId}/deliveries`);
        const delivery = (res.body.data as { id: string; status: string; attempts: { ok: boolean; response_status: number | null }[] }[]).find((d) => d.id === deliveryId);
        return delivery?.status === 'succeeded' ? delivery : undefined;
      },
      30_000,
    );
    expect(log.attempts).toEqual([expect.objectContaining({ ok: true, response_status: 200 })]);

    // No duplicate after the 200: every message of the delivery runs out (the handed-back one and the
    // one sent at release), and the receiver sees nothing more.
    await until('the webhook queue to be idle', async () => (await count(`select count(*) n from pgboss.job where name = 'deliver-webhook' and state in ('created', 'retry', 'active')`)) === 0, 60_000);
    await sleep(3_000);
    expect(receiver.hits).toHaveLength(2);
    expect(await count(`select count(*) n from webhook_attempts where delivery_id = $1`, [deliveryId])).toBe(1);

    expect(await next.stop()).toBe(0);
    expect(await api.stop()).toBe(0);
  });
});
