import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailUnsubscribes, requestEvents, testimonialRequests } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { startSmtpCatcher } from '../../test/smtp-catcher.js';
import { REMINDER_SWEEP_CRON, sendRemindersJob } from '../../queue/definitions.js';
import { runReminderSweep } from './reminders.service.js';
import { isWithinCivilHours } from './schedule.js';
import { unsubscribeToken } from './unsubscribe-link.js';

describe('automatic reminders and unsubscribing', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    t = await createTestApp({ work: true, env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  let companies = 0;
  async function companyWithRequest(email: string, over: { language?: 'english' | 'french'; createdAt?: Date } = {}) {
    companies += 1;
    const me = await signedInCompany(t, { companyName: companies === 1 ? 'Atelier Rivoli' : `Atelier Rivoli ${companies}` });
    const q = (await me.post('/api/questions/add', { company_id: me.companyId, text: 'What changed for you?', order_position: 1 })).json().id;
    const res = await me.post('/api/testimonials/request', { customer_email: email, customer_name: 'Léa', question_ids: [q], language: over.language ?? 'english' });
    expect(res.statusCode, res.body).toBe(201);
    const id: string = res.json().testimonial.id;
    const createdAt = over.createdAt ?? new Date('2026-01-05T09:00:00Z');
    await t.ctx.db
      .update(testimonialRequests)
      .set({ createdAt, expiresAt: new Date(createdAt.getTime() + 30 * 86_400_000) })
      .where(eq(testimonialRequests.id, id));
    return { me, id };
  }
  /** 12:00 UTC today, or tomorrow when it is past (a civil hour in UTC, before the request expires). */
  const nextNoonUtc = () => {
    const now = new Date();
    const noon = new Date(now);
    noon.setUTCHours(12, 0, 0, 0);
    if (noon.getTime() < now.getTime() + 3_600_000) noon.setUTCDate(noon.getUTCDate() + 1);
    return noon;
  };
  const row = async (id: string) => (await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, id)))[0]!;
  const reminded = async (id: string) =>
    (await t.ctx.db.select().from(requestEvents).where(and(eq(requestEvents.requestId, id), eq(requestEvents.kind, 'reminded')))).map((e) => e.detail);

  it('reads and changes the company setting, with translated reasons for bad values', async () => {
    const me = await signedInCompany(t);
    const initial = await me.get('/api/user/reminder-settings');
    expect(initial.json()).toEqual({ reminder_days: [3, 7], time_zone: 'Europe/Paris' });
    const saved = await me.put('/api/user/reminder-settings', { reminder_days: [2, 5, 10], time_zone: 'America/New_York' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await me.get('/api/user/reminder-settings')).json()).toEqual({ reminder_days: [2, 5, 10], time_zone: 'America/New_York' });
    expect((await me.put('/api/user/reminder-settings', { reminder_days: [], time_zone: 'UTC' })).json()).toEqual({ reminder_days: [], time_zone: 'UTC' });
    for (const reminder_days of [[5, 3], [0], [61], [1, 2, 3, 4], [2, 2], [1.5]]) {
      const bad = await me.put('/api/user/reminder-settings', { reminder_days, time_zone: 'Europe/Paris' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ reason: 'reminder_days_invalid', field: 'reminder_days' });
    }
    const zone = await me.put('/api/user/reminder-settings', { reminder_days: [3], time_zone: 'Mars/Olympus_Mons' });
    expect(zone.json()).toMatchObject({ reason: 'time_zone_invalid', field: 'time_zone' });
    // New requests take the company's time zone.
    await me.put('/api/user/reminder-settings', { reminder_days: [3, 7], time_zone: 'Asia/Tokyo' });
    const q = (await me.post('/api/questions/add', { company_id: me.companyId, text: 'Why us?', order_position: 1 })).json().id;
    const sent = await me.post('/api/testimonials/request', { customer_email: 'tz@client.test', customer_name: 'Tz', question_ids: [q], language: 'english' });
    expect(sent.json().testimonial.time_zone).toBe('Asia/Tokyo');
  });

  it('sends each reminder on its day within civil hours, one per 24 hours, and records it', async () => {
    const { id } = await companyWithRequest('sweep@client.test');
    const mine = async (now: string) => (await runReminderSweep(t.ctx, new Date(now))).filter((r) => r === id);
    expect(await mine('2026-01-08T08:59:00Z')).toEqual([]); // not yet 3 days
    expect(await mine('2026-01-08T09:00:00Z')).toEqual([id]); // day 3, 10:00 in Paris
    expect(await mine('2026-01-08T09:05:00Z')).toEqual([]); // just sent
    let r = await row(id);
    expect(r).toMatchObject({ autoReminderCount: 1, reminderCount: 1 });
    expect(r.lastReminderSent?.toISOString()).toBe('2026-01-08T09:00:00.000Z');
    const mail = await smtp.waitFor('sweep@client.test', /Reminder: Atelier Rivoli/);
    expect(mail.email.headers.find((h) => h.key === 'list-unsubscribe')?.value).toMatch(/^<http:\/\/app\.test\/unsubscribe\/[\w-]{22}\.[\w-]{22}>$/);
    expect(mail.email.headers.find((h) => h.key === 'list-unsubscribe-post')?.value).toBe('List-Unsubscribe=One-Click');
    expect(mail.links.some((l) => l.startsWith('http://app.test/unsubscribe/'))).toBe(true);
    expect(mail.email.text).toContain('Unsubscribe: no more reminders from Atelier Rivoli');
    // Day 7 falls at 19:00 local: waits for the next morning.
    expect(await mine('2026-01-12T18:00:00Z')).toEqual([]);
    expect(await mine('2026-01-13T07:59:00Z')).toEqual([]);
    expect(await mine('2026-01-13T08:00:00Z')).toEqual([id]);
    expect(await mine('2026-01-20T10:00:00Z')).toEqual([]); // no third one
    r = await row(id);
    expect(r).toMatchObject({ autoReminderCount: 2, reminderCount: 2 });
    expect(await reminded(id)).toEqual([
      { automatic: true, n: 1 },
      { automatic: true, n: 2 },
    ]);
  });

  it('counts manual reminders in the 24-hour gap, and two sweeps at once send one reminder', async () => {
    const { me, id } = await companyWithRequest('race@client.test', { createdAt: new Date(Date.now() - 4 * 86_400_000) });
    const manual = await me.post(`/api/testimonials/request/${id}/remind`, { company_id: me.companyId });
    expect(manual.statusCode, manual.body).toBe(200);
    const now = new Date();
    // A zone where an hour from now is a civil hour, so that only the 24-hour gap can hold the reminder back.
    const inAnHour = new Date(now.getTime() + 3_600_000);
    const zone = ['UTC', 'Asia/Tokyo', 'America/New_York', 'America/Los_Angeles'].find((z) => isWithinCivilHours(inAnHour, z))!;
    await t.ctx.db.update(testimonialRequests).set({ timeZone: zone }).where(eq(testimonialRequests.id, id));
    const within = (await runReminderSweep(t.ctx, inAnHour)).filter((r) => r === id);
    expect(within).toEqual([]);
    expect(await reminded(id)).toEqual([{ automatic: false, n: 1 }]);
    // Two workers sweeping the same instant: one reminder, one e-mail.
    // Due exactly at the next noon (UTC), and not before: the scheduled sweep running meanwhile at the real time sends nothing.
    const noon = nextNoonUtc();
    await t.ctx.db
      .update(testimonialRequests)
      .set({ createdAt: new Date(noon.getTime() - 3 * 86_400_000), lastReminderSent: new Date(noon.getTime() - 25 * 3_600_000), timeZone: 'UTC' })
      .where(eq(testimonialRequests.id, id));
    expect((await runReminderSweep(t.ctx, new Date(noon.getTime() - 60_000))).includes(id)).toBe(false);
    const [a, b] = await Promise.all([runReminderSweep(t.ctx, noon), runReminderSweep(t.ctx, noon)]);
    expect([...a, ...b].filter((r) => r === id)).toEqual([id]);
    expect((await row(id)).reminderCount).toBe(2);
  });

  it('unsubscribes through the page and one click, idempotently; no reminder follows, manual ones are refused', async () => {
    const { me, id } = await companyWithRequest('Out@Client.test', { language: 'french', createdAt: new Date(Date.now() - 4 * 86_400_000) });
    const token = unsubscribeToken(t.ctx.secrets.jwt, id);
    const page = await t.app.inject({ method: 'GET', url: `/unsubscribe/${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-robots-tag']).toContain('noindex');
    expect(String(page.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(page.body).toContain('<html lang="fr">');
    expect(page.body).toContain('Ne plus recevoir de relances');
    expect(page.body).toContain('o•••@client.test');
    expect(page.body).not.toContain('out@client.test');

    const oneClick = await t.app.inject({
      method: 'POST',
      url: `/unsubscribe/${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.body).toContain('Vous êtes désabonné');
    expect(oneClick.headers['set-cookie']).toBeUndefined();
    const again = await t.app.inject({ method: 'POST', url: `/unsubscribe/${token}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click&from=page' });
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(`/unsubscribe/${token}`);
    const [companyId] = [me.companyId];
    expect(await t.ctx.db.select().from(emailUnsubscribes).where(eq(emailUnsubscribes.companyId, companyId))).toEqual([
      expect.objectContaining({ email: 'out@client.test' }),
    ]);
    const events = await t.ctx.db.select().from(requestEvents).where(and(eq(requestEvents.requestId, id), eq(requestEvents.kind, 'unsubscribed')));
    expect(events).toHaveLength(1);
    expect(events[0]!.detail).toEqual({ via: 'one_click' });

    await t.ctx.db.update(testimonialRequests).set({ timeZone: 'UTC' }).where(eq(testimonialRequests.id, id));
    expect((await runReminderSweep(t.ctx, nextNoonUtc())).includes(id)).toBe(false);
    const manual = await me.post(`/api/testimonials/request/${id}/remind`, { company_id: me.companyId });
    expect(manual.statusCode).toBe(409);
    expect(manual.json()).toMatchObject({ reason: 'reminder_unsubscribed' });
    const detail = await me.get(`/api/testimonials/request-safe/${id}?company_id=${me.companyId}`);
    expect(detail.json().testimonial.email_unsubscribed_at).toEqual(expect.any(String));
  });

  it('is on pg-boss schedule every five minutes, and the worker runs the job', async () => {
    const { rows } = (await t.ctx.database.executeSql('select name, cron from pgboss.schedule')) as { rows: { name: string; cron: string }[] };
    expect(rows).toContainEqual({ name: 'send-reminders', cron: REMINDER_SWEEP_CRON });
    const id = await t.ctx.queue.send(sendRemindersJob, {});
    for (let i = 0; i < 100; i += 1) {
      const { rows: jobs } = (await t.ctx.database.executeSql('select state from pgboss.job where id = $1', [id])) as { rows: { state: string }[] };
      if (jobs[0]?.state === 'completed') return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the send-reminders job did not complete');
  });

  it('answers a forged or tampered token with a 404 page that says nothing', async () => {
    const { id } = await companyWithRequest('forge@client.test');
    const token = unsubscribeToken(t.ctx.secrets.jwt, id);
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'AB' : 'AA'}`;
    const other = unsubscribeToken('another-secret-of-32-characters-long!!', id);
    for (const bad of [tampered, other, 'nope', `${token}x`]) {
      const get = await t.app.inject({ method: 'GET', url: `/unsubscribe/${bad}`, headers: { 'accept-language': 'fr-FR' } });
      expect(get.statusCode).toBe(404);
      expect(get.body).toContain('Ce lien ne fonctionne pas');
      const post = await t.app.inject({ method: 'POST', url: `/unsubscribe/${bad}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
      expect(post.statusCode).toBe(404);
    }
    expect(await t.ctx.db.select().from(emailUnsubscribes).where(eq(emailUnsubscribes.email, 'forge@client.test'))).toEqual([]);
  });
});
