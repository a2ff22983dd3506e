/**
 * Webhooks and server-side request forgery (issue 32, decision 211): an endpoint's address must resolve
 * to public addresses only, at creation and at every delivery, checked after DNS with the connection
 * pinned to the checked address; redirects are not followed; http only where the operator allows private
 * addresses (never in production). Another company's endpoints and deliveries are 404.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../src/server/db/schema.js';
import { checkUrlForm, isPublicAddress, RefusedAddress, resolveEndpoint, type Resolver } from '../../src/server/modules/webhooks/address.js';
import { attemptDelivery, setDeliveryResolver } from '../../src/server/modules/webhooks/delivery.service.js';
import { sendWebhook } from '../../src/server/modules/webhooks/send.js';
import { setCreationResolver } from '../../src/server/modules/webhooks/webhooks.service.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';
import { webhookReceiver } from '../../src/server/test/webhook-receiver.js';

const INSIDE = [
  '127.0.0.1',
  '127.1.2.3',
  '10.0.0.1',
  '10.255.255.254',
  '172.16.0.1',
  '172.31.255.1',
  '192.168.1.10',
  '169.254.169.254',
  '100.64.0.1',
  '0.0.0.0',
  '224.0.0.1',
  '255.255.255.255',
  '::1',
  '::',
  'fc00::1',
  'fd12:3456::1',
  'fe80::1',
  'ff02::1',
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '64:ff9b::a00:1',
  '2002:a00:1::1',
];
const PUBLIC = ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'];

/** A resolver standing in for DNS (no network here): each name to its addresses. */
const fakeDns =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const found = table[hostname];
    if (!found) throw new Error('ENOTFOUND');
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('webhook addresses (no SSRF)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The operator's default: private addresses and http refused.
    t = await createTestApp();
  });
  afterAll(async () => {
    setCreationResolver(null);
    setDeliveryResolver(null);
    await t?.close();
  });
  afterEach(() => {
    setCreationResolver(null);
    setDeliveryResolver(null);
  });

  it('judges every loopback, private, link-local, unique-local, multicast, CGNAT, unspecified and mapped address as inside', () => {
    for (const a of INSIDE) expect(isPublicAddress(a), a).toBe(false);
    for (const a of PUBLIC) expect(isPublicAddress(a), a).toBe(true);
  });

  it('refuses inside addresses at creation, as literals and as names resolving inside (even one address among public ones)', async () => {
    const me = await signedInCompany(t);
    setCreationResolver(
      fakeDns({
        'localhost.hooks.test': ['127.0.0.1'],
        'metadata.hooks.test': ['169.254.169.254'],
        'mixed.hooks.test': ['93.184.215.14', '10.0.0.5'],
        'v6.hooks.test': ['fd00::5'],
        'public.hooks.test': ['93.184.215.14'],
      }),
    );
    const refused = [
      ...INSIDE.map((a) => (a.includes(':') ? `https://[${a}]/hook` : `https://${a}/hook`)),
      'https://localhost.hooks.test/hook',
      'https://metadata.hooks.test/latest/meta-data',
      'https://mixed.hooks.test/hook',
      'https://v6.hooks.test/hook',
      'https://unknown.hooks.test/hook',
      'http://public.hooks.test/hook',
      'https://user:pass@public.hooks.test/hook',
    ];
    for (const url of refused) {
      const res = await me.post('/api/webhooks', { url, events: ['render.ready'] });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json(), url).toMatchObject({ code: 'invalid_data', field: 'url' });
    }
    expect((await t.ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.companyId, me.companyId))).length).toBe(0);
    // A public name is accepted, and so is a change of address to an inside one refused.
    const ok = await me.post('/api/webhooks', { url: 'https://public.hooks.test/hook', events: ['render.ready'] });
    expect(ok.statusCode, ok.body).toBe(201);
    const moved = await me.put(`/api/webhooks/${ok.json().id}`, { url: 'https://localhost.hooks.test/hook' });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({ field: 'url' });
  });

  it('checks again at every delivery: a name that later resolves inside (DNS rebinding) is not connected to', async () => {
    const me = await signedInCompany(t);
    const receiver = await webhookReceiver();
    try {
      setCreationResolver(fakeDns({ 'rebind.hooks.test': ['93.184.215.14'] }));
      const created = await me.post('/api/webhooks', { url: `https://rebind.hooks.test:${receiver.port}/hooks`, events: ['render.ready'] });
      expect(created.statusCode, created.body).toBe(201);
      const sent = await me.post(`/api/webhooks/${created.json().id}/test`);
      expect(sent.statusCode).toBe(202);
      // Now the name points at the loopback receiver.
      setDeliveryResolver(fakeDns({ 'rebind.hooks.test': ['127.0.0.1'] }));
      expect(await attemptDelivery(t.ctx, sent.json().id)).toBe('retry');
      expect(receiver.received).toHaveLength(0);
      const [attempt] = await t.ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, sent.json().id));
      expect(attempt).toMatchObject({ ok: false, responseStatus: null });
      expect(attempt!.error).toContain('private or reserved');
    } finally {
      await receiver.close();
    }
  });

  it('refuses http and private addresses in production, and WEBHOOKS_ALLOW_PRIVATE there', () => {
    const production = { NODE_ENV: 'production', APP_URL: 'https://a.example', JWT_SECRET: randomBytes(32).toString('hex') };
    const config = loadConfig(production);
    expect(config.webhooksAllowPrivate).toBe(false);
    expect(() => checkUrlForm('http://hooks.example.com/x', { allowPrivate: config.webhooksAllowPrivate })).toThrow(RefusedAddress);
    expect(() => loadConfig({ ...production, WEBHOOKS_ALLOW_PRIVATE: 'on' })).toThrow(/WEBHOOKS_ALLOW_PRIVATE/);
  });

  it('connects to the checked address only (pinned), with the name as Host', async () => {
    const receiver = await webhookReceiver();
    const seen: string[] = [];
    try {
      let calls = 0;
      // A resolver that would answer differently the second time: it is asked once.
      const resolve: Resolver = async () => {
        calls += 1;
        return [{ address: calls === 1 ? '127.0.0.1' : '10.9.9.9', family: 4 }];
      };
      receiver.answerWith(() => 204);
      const result = await sendWebhook({ url: `http://pinned.hooks.test:${receiver.port}/hooks`, secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`, id: 'msg_1', payload: '{}' }, { allowPrivate: true, resolve });
      expect(result).toMatchObject({ ok: true, status: 204 });
      expect(calls).toBe(1);
      seen.push(...receiver.received.map((r) => r.id));
      expect(seen).toEqual(['msg_1']);
      await expect(resolveEndpoint(new URL('https://x.hooks.test/'), { allowPrivate: false, resolve: async () => [] })).rejects.toThrow(RefusedAddress);
    } finally {
      await receiver.close();
    }
  });

  it('does not follow a redirect, stops at the timeout, and reads at most the response limit', async () => {
    const target = await webhookReceiver();
    const redirecting = await webhookReceiver();
    try {
      redirecting.answerWith(() => ({ status: 307, headers: { location: target.url } }));
      const policy = { allowPrivate: true, resolve: fakeDns({}) };
      const secret = `whsec_${Buffer.alloc(32, 2).toString('base64')}`;
      const redirected = await sendWebhook({ url: redirecting.url, secret, id: 'msg_r', payload: '{}' }, policy);
      expect(redirected).toMatchObject({ ok: false, status: 307 });
      expect(redirected.error).toContain('Redirect');
      expect(target.received).toHaveLength(0);

      // A receiver that never answers: given up at the timeout.
      const http = await import('node:http');
      const silent = http.createServer(() => undefined);
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
      try {
        const port = (silent.address() as { port: number }).port;
        const slow = await sendWebhook({ url: `http://127.0.0.1:${port}/`, secret, id: 'msg_t', payload: '{}' }, policy, { timeoutMs: 300 });
        expect(slow).toMatchObject({ ok: false, status: null });
        expect(slow.error).toContain('No answer');
      } finally {
        silent.closeAllConnections();
        await new Promise<void>((r) => silent.close(() => r()));
      }
      // A huge answer: read up to the limit, then dropped.
      const big = await webhookReceiver();
      try {
        big.answerWith(() => ({ status: 200, body: 'x'.repeat(5_000_000) }));
        const answered = await sendWebhook({ url: big.url, secret, id: 'msg_b', payload: '{}' }, policy, { responseLimitBytes: 1024 });
        expect(answered).toMatchObject({ ok: true, status: 200 });
      } finally {
        await big.close();
      }
    } finally {
      await target.close();
      await redirecting.close();
    }
  });

  it("answers 404 for another company's endpoint and deliveries, and changes nothing", async () => {
    const owner = await signedInCompany(t);
    const attacker = await signedInCompany(t);
    const [endpoint] = await t.ctx.db
      .insert(webhookEndpoints)
      .values({ companyId: owner.companyId, url: 'https://hooks.owner.test/in', events: ['render.ready'], secret: `whsec_${Buffer.alloc(32, 3).toString('base64')}` })
      .returning();
    const delivery = (await owner.post(`/api/webhooks/${endpoint!.id}/test`)).json<{ id: string }>().id;
    const base = `/api/webhooks/${endpoint!.id}`;
    const calls: [string, string, object?][] = [
      ['PUT', base, { enabled: false }],
      ['DELETE', base],
      ['POST', `${base}/rotate-secret`],
      ['GET', `${base}/deliveries`],
      ['POST', `${base}/deliveries/${delivery}/redeliver`],
      ['POST', `${base}/test`],
    ];
    for (const [method, url, payload] of calls) {
      const res = await t.app.inject({ method: method as 'GET', url, headers: attacker.headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
      expect(res.body).not.toContain('hooks.owner.test');
    }
    expect((await attacker.get('/api/webhooks')).json()).toEqual({ endpoints: [] });
    const [after] = await t.ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint!.id));
    expect(after).toMatchObject({ enabled: true, secret: endpoint!.secret });
    expect((await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint!.id))).length).toBe(1);
  });
});
