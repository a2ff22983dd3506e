import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionLinks, requestEvents, testimonialRequests } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial } from '../../test/testimonials.js';
import { recordRequestEvent } from './events.js';
import { permanentRefusalCode, sendMailAndRecord } from './mail-outcome.js';

/**
 * Issue 30, the funnel through the real calls: invitations sent by the API (their e-mails through the
 * worker to a real SMTP server that refuses one address for good), customers who stop at each step
 * (the link validated, the page's progress beacon, a real submission), a collection link with its
 * visitors, and the exact counts, conversions and breakdowns that come out — per period, link and language.
 */

/** An SMTP server on loopback: 'bounce…' addresses are refused for good (550), 'busy…' deferred (451). */
async function startRefusingSmtp() {
  const accepted: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('bounce')) return callback(Object.assign(new Error('No such user here'), { responseCode: 550 }));
      if (address.address.startsWith('busy')) return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
      callback();
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        accepted.push(...session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the request funnel', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startRefusingSmtp>>;
  beforeAll(async () => {
    smtp = await startRefusingSmtp();
    t = await createTestApp({ work: true, env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const DAY = 86_400_000;
  const tokenOf = async (id: string) => (await t.ctx.db.select({ token: testimonialRequests.token }).from(testimonialRequests).where(eq(testimonialRequests.id, id)))[0]!.token;
  const eventsOf = (id: string) => t.ctx.db.select().from(requestEvents).where(eq(requestEvents.requestId, id));
  const progress = (token: string, step: string, remoteAddress = '10.30.0.1') =>
    t.app.inject({
      method: 'POST',
      url: '/api/public/testimonial/progress',
      payload: { token, step },
      remoteAddress,
    });
  const validate = (token: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/public/testimonial/validate/${token}`,
      remoteAddress: '10.30.0.2',
    });

  async function waitFor(check: () => Promise<boolean>, what: string) {
    const deadline = Date.now() + 20_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('counts a scripted set of customers exactly, per period, link and language, with conversions', async () => {
    const me = await signedInCompany(t);
    const q = (
      await me.post('/api/questions/add', {
        company_id: me.companyId,
        text: 'What changed for you?',
        order_position: 1,
      })
    ).json();
    const send = async (name: string, language: 'english' | 'french', email: string | null) => {
      const res = await me.post('/api/testimonials/request', {
        customer_name: name,
        question_ids: [q.id],
        language,
        ...(email ? { customer_email: email } : { delivery: 'link' }),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().testimonial.id as string;
    };

    // Seven invitations, each stopping at a different step; one more created 40 days ago.
    const r1 = await send('Delivered Only', 'english', 'r1@client.test');
    const r2 = await send('Opened Only', 'english', 'r2@client.test');
    const r3 = await send('Camera Granted', 'french', 'r3@client.test');
    const r4 = await send('First Answer', 'french', 'r4@client.test');
    const r5 = (await completedTestimonial(t, me, { language: 'english' })).id; // sent, then straight to the submission
    const r6 = await send('Bounced Address', 'english', 'bounce-r6@client.test');
    const r7 = await send('Link Handed Over', 'french', null);
    const r0 = await send('Old Request', 'english', 'r0@client.test');
    const longAgo = new Date(Date.now() - 40 * DAY);
    await t.ctx.db.update(testimonialRequests).set({ createdAt: longAgo }).where(eq(testimonialRequests.id, r0));

    // Every invitation e-mail's outcome, as the SMTP server answered the worker.
    await waitFor(async () => {
      const rows = await t.ctx.db.select().from(requestEvents).where(eq(requestEvents.companyId, me.companyId));
      const has = (id: string, kind: string) => rows.some((e) => e.requestId === id && e.kind === kind);
      return [r1, r2, r3, r4, r5, r0].every((id) => has(id, 'delivered')) && has(r6, 'bounced');
    }, 'the invitations to be delivered and the bounce');
    expect((await eventsOf(r6)).find((e) => e.kind === 'bounced')!.detail).toEqual({ smtpCode: 550 });
    expect((await eventsOf(r7)).map((e) => e.kind)).toEqual(['sent']);
    expect((await eventsOf(r7))[0]!.detail).toEqual({ via: 'link' });

    // The customers' steps, through their own calls.
    for (const id of [r2, r3, r4]) expect((await validate(await tokenOf(id))).statusCode).toBe(200);
    expect((await progress(await tokenOf(r3), 'device_ok')).statusCode).toBe(204);
    expect((await progress(await tokenOf(r4), 'device_ok')).statusCode).toBe(204);
    expect((await progress(await tokenOf(r4), 'first_answer')).statusCode).toBe(204);
    // Repeats count once.
    expect((await validate(await tokenOf(r2))).statusCode).toBe(200);
    expect((await progress(await tokenOf(r4), 'first_answer')).statusCode).toBe(204);
    expect((await eventsOf(r4)).filter((e) => e.kind === 'first_answer')).toHaveLength(1);
    // The submitted request's page sends no step afterwards: a finished request records nothing more.
    expect((await progress(await tokenOf(r5), 'device_ok')).statusCode).toBe(204);
    // (Two deliveries: the invitation and the receipt the submission sent, both about this request.)
    await waitFor(async () => (await eventsOf(r5)).filter((e) => e.kind === 'delivered').length === 2, "the receipt's delivery");
    expect((await eventsOf(r5)).map((e) => e.kind).sort()).toEqual(['delivered', 'delivered', 'sent', 'submitted']);

    // A collection link (French) with three visitors today and one 40 days ago, and two requests started there.
    const [link] = await t.ctx.db
      .insert(collectionLinks)
      .values({
        companyId: me.companyId,
        slug: `fair-${randomBytes(4).toString('hex')}`,
        name: 'Trade fair',
        language: 'french',
      })
      .returning();
    const [quiet] = await t.ctx.db
      .insert(collectionLinks)
      .values({
        companyId: me.companyId,
        slug: `web-${randomBytes(4).toString('hex')}`,
        name: 'Website',
        language: 'english',
      })
      .returning();
    for (const v of ['a', 'b', 'c']) {
      await recordRequestEvent(t.ctx.db, {
        companyId: me.companyId,
        linkId: link!.id,
        kind: 'link_opened',
        language: 'french',
        visitorHash: `visitor-${v}`,
      });
    }
    await recordRequestEvent(t.ctx.db, {
      companyId: me.companyId,
      linkId: link!.id,
      kind: 'link_opened',
      language: 'french',
      visitorHash: 'visitor-old',
      at: longAgo,
    });
    const started = async (name: string) => {
      const [row] = await t.ctx.db
        .insert(testimonialRequests)
        .values({
          companyId: me.companyId,
          token: randomBytes(32).toString('base64url'),
          customerName: name,
          customerEmail: `${name.toLowerCase()}@visitor.test`,
          delivery: 'collection',
          collectionLinkId: link!.id,
          language: 'french',
          expiresAt: new Date(Date.now() + 30 * DAY),
        })
        .returning();
      await recordRequestEvent(t.ctx.db, {
        companyId: me.companyId,
        requestId: row!.id,
        linkId: link!.id,
        kind: 'sent',
        language: 'french',
        detail: { via: 'collection' },
      });
      return row!;
    };
    const c1 = await started('Camille');
    await started('Dominique');
    expect((await validate(c1.token)).statusCode).toBe(200);
    expect((await progress(c1.token, 'device_ok')).statusCode).toBe(204);

    const funnel = (await me.get('/api/funnel')).json();
    const today = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Europe/Paris',
    }).format(new Date());
    expect(funnel).toMatchObject({
      to: today,
      time_zone: 'Europe/Paris',
      link_id: null,
      language: null,
    });
    expect(Date.parse(`${funnel.to}T00:00:00Z`) - Date.parse(`${funnel.from}T00:00:00Z`)).toBe(29 * DAY);
    expect(funnel.invitations).toEqual({
      steps: [
        { step: 'sent', count: 7, conversion: null },
        { step: 'delivered', count: 6, conversion: 0.8571 },
        { step: 'opened', count: 4, conversion: 0.6667 },
        { step: 'device_ok', count: 3, conversion: 0.75 },
        { step: 'first_answer', count: 2, conversion: 0.6667 },
        { step: 'submitted', count: 1, conversion: 0.5 },
      ],
      bounced: 1,
    });
    expect(funnel.links).toEqual({
      steps: [
        { step: 'link_opened', count: 3, conversion: null },
        { step: 'sent', count: 2, conversion: 0.6667 },
        { step: 'opened', count: 1, conversion: 0.5 },
        { step: 'device_ok', count: 1, conversion: 1 },
        { step: 'first_answer', count: 0, conversion: 0 },
        { step: 'submitted', count: 0, conversion: null },
      ],
      bounced: 0,
    });
    const zero = {
      link_opened: 0,
      sent: 0,
      opened: 0,
      device_ok: 0,
      first_answer: 0,
      submitted: 0,
      bounced: 0,
      conversion: null,
    };
    expect(funnel.by_link).toEqual([
      {
        link_id: link!.id,
        name: 'Trade fair',
        link_opened: 3,
        sent: 2,
        opened: 1,
        device_ok: 1,
        first_answer: 0,
        submitted: 0,
        bounced: 0,
        conversion: 0,
      },
      { link_id: quiet!.id, name: 'Website', ...zero },
    ]);
    expect(funnel.by_language).toEqual([
      {
        language: 'english',
        link_opened: 0,
        sent: 4,
        opened: 2,
        device_ok: 1,
        first_answer: 1,
        submitted: 1,
        bounced: 1,
        conversion: 0.25,
      },
      {
        language: 'french',
        link_opened: 3,
        sent: 5,
        opened: 3,
        device_ok: 3,
        first_answer: 1,
        submitted: 0,
        bounced: 0,
        conversion: 0,
      },
    ]);

    // One language.
    const french = (await me.get('/api/funnel?language=french')).json();
    expect(french.language).toBe('french');
    expect(french.invitations.steps.map((s: { count: number }) => s.count)).toEqual([3, 3, 2, 2, 1, 0]);
    expect(french.links.steps.map((s: { count: number }) => s.count)).toEqual([3, 2, 1, 1, 0, 0]);
    expect(french.by_language.map((r: { language: string }) => r.language)).toEqual(['french']);
    expect((await me.get('/api/funnel?language=english')).json().links.steps.map((s: { count: number }) => s.count)).toEqual([0, 0, 0, 0, 0, 0]);

    // One link: only its requests and visitors.
    const one = (await me.get(`/api/funnel?link_id=${link!.id}`)).json();
    expect(one.invitations.steps.map((s: { count: number }) => s.count)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(one.links.steps.map((s: { count: number }) => s.count)).toEqual([3, 2, 1, 1, 0, 0]);
    expect(one.by_link.map((r: { name: string }) => r.name)).toEqual(['Trade fair']);

    // Another period: only the old request and the old visitor; the days' ends are exact.
    const day = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date(ms));
    const old = (await me.get(`/api/funnel?from=${day(longAgo.getTime() - 5 * DAY)}&to=${day(longAgo.getTime())}`)).json();
    expect(old.invitations.steps.map((s: { count: number }) => s.count)).toEqual([1, 1, 0, 0, 0, 0]);
    expect(old.links.steps[0]).toEqual({
      step: 'link_opened',
      count: 1,
      conversion: null,
    });
    const before = (await me.get(`/api/funnel?from=${day(longAgo.getTime() - 5 * DAY)}&to=${day(longAgo.getTime() - DAY)}`)).json();
    expect(before.invitations.steps[0].count).toBe(0);
    expect(before.links.steps[0].count).toBe(0);
    // Midnight in the company's time zone: a request made at 23:30 UTC on a winter day is the next day in Paris.
    await t.ctx.db
      .update(testimonialRequests)
      .set({ createdAt: new Date('2026-01-10T23:30:00Z') })
      .where(eq(testimonialRequests.id, r0));
    expect((await me.get('/api/funnel?from=2026-01-10&to=2026-01-10')).json().invitations.steps[0].count).toBe(0);
    expect((await me.get('/api/funnel?from=2026-01-11&to=2026-01-11')).json().invitations.steps[0].count).toBe(1);

    // Refused queries, with the field named.
    for (const query of ['from=2026-02-30&to=2026-03-01', 'from=2026-03-02&to=2026-03-01', 'from=2025-01-01&to=2026-03-01', 'from=2026-03-01', 'language=german', 'link_id=nope']) {
      const res = await me.get(`/api/funnel?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('invalid_data');
    }
    // Another company's link is not a filter of this one's funnel.
    const other = await signedInCompany(t);
    const foreign = await other.get(`/api/funnel?link_id=${link!.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({
      code: 'not_found',
      reason: 'funnel_link_not_found',
    });
    expect((await other.get('/api/funnel')).json().invitations.steps[0].count).toBe(0);

    // The timeline of the request that stopped at its first answer, with a reminder between.
    await recordRequestEvent(t.ctx.db, {
      companyId: me.companyId,
      requestId: r4,
      kind: 'reminded',
      language: 'french',
      detail: { automatic: true },
      at: new Date(Date.now() + 1000),
    });
    const timeline = await me.get(`/api/testimonials/request/${r4}/timeline`);
    expect(timeline.statusCode, timeline.body).toBe(200);
    const events = timeline.json().events as {
      kind: string;
      automatic: boolean | null;
      via: string | null;
      at: string;
    }[];
    expect(events.map((e) => e.kind)).toEqual(['sent', 'delivered', 'opened', 'device_ok', 'first_answer', 'reminded']);
    expect(events[0]).toMatchObject({
      via: 'email',
      automatic: null,
      smtp_code: null,
    });
    expect(events[5]).toMatchObject({ automatic: true, via: null });
    expect([...events.map((e) => e.at)].sort()).toEqual(events.map((e) => e.at));
    expect((await me.get(`/api/testimonials/request/${r6}/timeline`)).json().events.map((e: { kind: string; smtp_code: number | null }) => [e.kind, e.smtp_code])).toEqual([
      ['sent', null],
      ['bounced', 550],
    ]);
    const hidden = await other.get(`/api/testimonials/request/${r4}/timeline`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toMatchObject({
      code: 'not_found',
      reason: 'timeline_request_not_found',
    });
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/testimonials/request/${r4}/timeline`,
        })
      ).statusCode,
    ).toBe(401);
    expect(r1).toBeTruthy();
  });

  it('answers the progress beacon with 204 whatever the token, records only a pending request, and limits each address', async () => {
    const me = await signedInCompany(t);
    const q = (
      await me.post('/api/questions/add', {
        company_id: me.companyId,
        text: 'Why us?',
        order_position: 1,
      })
    ).json();
    const id = (
      await me.post('/api/testimonials/request', {
        customer_name: 'Beacon',
        question_ids: [q.id],
        language: 'english',
        delivery: 'link',
      })
    ).json().testimonial.id as string;
    const token = await tokenOf(id);

    const unknown = await progress(randomBytes(32).toString('base64url'), 'device_ok', '10.31.0.1');
    expect(unknown.statusCode).toBe(204);
    expect(unknown.headers['set-cookie']).toBeUndefined();
    const ok = await progress(token, 'device_ok', '10.31.0.1');
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['set-cookie']).toBeUndefined();
    expect(ok.headers['cache-control']).toBe('no-store');
    expect((await eventsOf(id)).map((e) => e.kind).sort()).toEqual(['device_ok', 'sent']);

    expect((await progress(token, 'submitted', '10.31.0.1')).statusCode).toBe(400);
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/public/testimonial/progress',
      payload: { token, step: 'first_answer' },
      headers: { origin: 'https://evil.test' },
      remoteAddress: '10.31.0.1',
    });
    expect(foreign.statusCode).toBe(403);
    expect((await eventsOf(id)).some((e) => e.kind === 'first_answer')).toBe(false);

    // An expired request records nothing.
    await t.ctx.db
      .update(testimonialRequests)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(testimonialRequests.id, id));
    expect((await progress(token, 'first_answer', '10.31.0.1')).statusCode).toBe(204);
    expect((await eventsOf(id)).some((e) => e.kind === 'first_answer')).toBe(false);

    // 30 beacons per address in 10 minutes, then 429; another address is not held back.
    const codes: number[] = [];
    for (let i = 0; i < 30; i += 1) codes.push((await progress(randomBytes(32).toString('base64url'), 'device_ok', '10.31.0.9')).statusCode);
    expect(codes.every((c) => c === 204)).toBe(true);
    expect((await progress(randomBytes(32).toString('base64url'), 'device_ok', '10.31.0.9')).statusCode).toBe(429);
    expect((await progress(randomBytes(32).toString('base64url'), 'device_ok', '10.31.0.10')).statusCode).toBe(204);
    expect(
      await t.ctx.db
        .select()
        .from(requestEvents)
        .where(and(eq(requestEvents.companyId, me.companyId), eq(requestEvents.kind, 'device_ok'))),
    ).toHaveLength(1);
  });

  it('records delivered and bounced from the SMTP answer, and leaves a deferral to the queue', async () => {
    const me = await signedInCompany(t);
    const q = (
      await me.post('/api/questions/add', {
        company_id: me.companyId,
        text: 'How was it?',
        order_position: 1,
      })
    ).json();
    const id = (
      await me.post('/api/testimonials/request', {
        customer_name: 'Mail',
        question_ids: [q.id],
        language: 'french',
        delivery: 'link',
      })
    ).json().testimonial.id as string;
    const mail = (to: string) => ({
      to,
      subject: 'Rappel',
      html: '<p>x</p>',
      text: 'x',
      requestId: id,
    });

    await expect(sendMailAndRecord(t.ctx, mail('ok@client.test'))).resolves.toBe('delivered');
    await expect(sendMailAndRecord(t.ctx, mail('bounce@client.test'))).resolves.toBe('bounced');
    await expect(sendMailAndRecord(t.ctx, mail('busy@client.test'))).rejects.toMatchObject({ responseCode: 451 });
    const kinds = (await eventsOf(id)).map((e) => [e.kind, e.language, e.detail]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['delivered', 'french', {}],
        ['bounced', 'french', { smtpCode: 550 }],
      ]),
    );
    expect(kinds).toHaveLength(3); // sent, delivered, bounced
    // An e-mail about no request is sent and records nothing.
    await expect(
      sendMailAndRecord(t.ctx, {
        to: 'owner@company.test',
        subject: 'x',
        html: 'x',
        text: 'x',
      }),
    ).resolves.toBe('delivered');

    expect(permanentRefusalCode({ responseCode: 550, code: 'EENVELOPE' })).toBe(550);
    expect(permanentRefusalCode({ responseCode: 554, code: 'EMESSAGE' })).toBe(554);
    expect(permanentRefusalCode({ responseCode: 535, code: 'EAUTH' })).toBeNull();
    expect(permanentRefusalCode({ responseCode: 421, code: 'EENVELOPE' })).toBeNull();
    expect(permanentRefusalCode({ code: 'ECONNECTION' })).toBeNull();
    expect(permanentRefusalCode(new Error('boom'))).toBeNull();
  });
});
