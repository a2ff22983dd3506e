import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testimonialRequests } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { startSmtpCatcher } from '../../test/smtp-catcher.js';

describe('testimonial requests', () => {
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

  async function companyWithQuestions(companyName?: string) {
    const me = await signedInCompany(t, companyName ? { companyName } : {});
    const ids: string[] = [];
    for (const [i, text] of ['What problem did we solve?', 'What would you tell a friend?'].entries()) {
      ids.push((await me.post('/api/questions/add', { company_id: me.companyId, text, order_position: i + 1 })).json().id);
    }
    return { me, ids };
  }

  it('sends a request with an unguessable link and mails the invitation in the request language', async () => {
    const { me, ids } = await companyWithQuestions('Boulangerie Martin');
    const res = await me.post('/api/testimonials/request', {
      customer_email: 'Lea@Client.test',
      customer_name: 'Léa Dubois',
      customer_position: 'Gérante',
      question_ids: [ids[1], ids[0]],
      language: 'french',
      gift: 'Un croissant offert',
      expires_in_days: 10,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { testimonial } = res.json();
    expect(testimonial).toMatchObject({ customer_name: 'Léa Dubois', status: 'pending', language: 'french', gift: 'Un croissant offert', last_reminder_sent: null, paid: false });
    const days = (Date.parse(testimonial.expires_at) - Date.parse(testimonial.created_at)) / 86_400_000;
    expect(Math.round(days)).toBe(10);

    const mail = await smtp.waitFor('lea@client.test', /Boulangerie Martin aimerait une courte vidéo/);
    expect(mail.email.text).toContain('Bonjour Léa Dubois');
    expect(mail.email.text).toContain('En remerciement\u00a0: Un croissant offert');
    const link = mail.links.find((l) => l.includes('/testimonial/submit/'))!;
    const token = link.split('/testimonial/submit/')[1]!;
    expect(link.startsWith('http://app.test/testimonial/submit/')).toBe(true);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 random bits, URL-safe
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, testimonial.id));
    expect(row?.token).toBe(token);

    const list = await me.get(`/api/testimonials/requests?company_id=${me.companyId}`);
    expect(list.json()).toHaveLength(1);
    const detail = await me.get(`/api/testimonials/request-safe/${testimonial.id}?company_id=${me.companyId}`);
    expect(detail.json().testimonial).toMatchObject({ id: testimonial.id, customer_email: 'Lea@Client.test', customer_position: 'Gérante' });
  });

  it('mails English invitations for english requests, with a default expiry of 30 days', async () => {
    const { me, ids } = await companyWithQuestions('Garage North');
    const res = await me.post('/api/testimonials/request', { customer_email: 'sam@client.test', customer_name: 'Sam', question_ids: ids, language: 'english' });
    const { testimonial } = res.json();
    expect(Math.round((Date.parse(testimonial.expires_at) - Date.parse(testimonial.created_at)) / 86_400_000)).toBe(30);
    const mail = await smtp.waitFor('sam@client.test', /Garage North would love a short video from you/);
    expect(mail.email.text).toContain('2 questions, up to 20 seconds each');
  });

  it('validates the send payload and refuses questions of another company', async () => {
    const { me, ids } = await companyWithQuestions();
    const other = await companyWithQuestions();
    const none = await me.post('/api/testimonials/request', { customer_email: 'a@b.test', customer_name: 'A', question_ids: [], language: 'english' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ field: 'question_ids' });
    const badEmail = await me.post('/api/testimonials/request', { customer_email: 'nope', customer_name: 'A', question_ids: ids, language: 'english' });
    expect(badEmail.json().field).toBe('customer_email');
    const foreign = await me.post('/api/testimonials/request', { customer_email: 'a@b.test', customer_name: 'A', question_ids: [ids[0], other.ids[0]], language: 'english' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe('no_permission');
    expect((await me.get(`/api/testimonials/requests?company_id=${me.companyId}`)).json()).toEqual([]);
  });

  it('sends one reminder per 24 hours, never for completed or expired requests', async () => {
    const { me, ids } = await companyWithQuestions('Yoga Flow');
    const { testimonial } = (await me.post('/api/testimonials/request', { customer_email: 'remind@client.test', customer_name: 'Rita', question_ids: ids, language: 'english' })).json();

    const first = await me.post(`/api/testimonials/request/${testimonial.id}/remind`, { company_id: me.companyId });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ success: true, last_reminder_sent: expect.any(String) });
    const mail = await smtp.waitFor('remind@client.test', /Reminder: Yoga Flow is waiting for your video/);
    expect(mail.links.some((l) => l.includes('/testimonial/submit/'))).toBe(true);

    const second = await me.post(`/api/testimonials/request/${testimonial.id}/remind`, { company_id: me.companyId });
    expect(second.statusCode).toBe(429);
    expect(second.json().error).toMatch(/already sent in the last 24 hours/);

    // A day later it is allowed again.
    await t.ctx.db.update(testimonialRequests).set({ lastReminderSent: new Date(Date.now() - 86_400_001) }).where(eq(testimonialRequests.id, testimonial.id));
    expect((await me.post(`/api/testimonials/request/${testimonial.id}/remind`, { company_id: me.companyId })).statusCode).toBe(200);

    await t.ctx.db.update(testimonialRequests).set({ expiresAt: new Date(Date.now() - 1000), lastReminderSent: null }).where(eq(testimonialRequests.id, testimonial.id));
    const expired = await me.post(`/api/testimonials/request/${testimonial.id}/remind`, { company_id: me.companyId });
    expect(expired.statusCode).toBe(409);
    expect(expired.json()).toMatchObject({ code: 'conflict', reason: 'reminder_request_expired' });
    expect(expired.json().error).toMatch(/expired/);
    expect((await me.get(`/api/testimonials/request-safe/${testimonial.id}?company_id=${me.companyId}`)).json().testimonial.status).toBe('expired');

    await t.ctx.db.update(testimonialRequests).set({ status: 'completed' }).where(eq(testimonialRequests.id, testimonial.id));
    const completed = await me.post(`/api/testimonials/request/${testimonial.id}/remind`, { company_id: me.companyId });
    expect(completed.statusCode).toBe(409);
    expect(completed.json()).toMatchObject({ code: 'conflict', reason: 'reminder_not_needed' });
    expect(completed.json().error).toMatch(/already recorded/);
  });

  it('creates a request whose link the company sends itself: no e-mail needed, none sent, never reminded by e-mail (decision 173)', async () => {
    const { me, ids } = await companyWithQuestions('Atelier Vélo');
    // Without an address: accepted, and the answer carries the private link.
    const bare = await me.post('/api/testimonials/request', { delivery: 'link', customer_email: '', customer_name: 'Noé', question_ids: ids, language: 'french' });
    expect(bare.statusCode, bare.body).toBe(201);
    const { testimonial } = bare.json();
    expect(testimonial).toMatchObject({ delivery: 'link', customer_email: null, status: 'pending' });
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, testimonial.id));
    expect(testimonial.link).toBe(`http://app.test/testimonial/submit/${row!.token}`);
    // The same link in the list and the detail, and it opens the customer's page.
    const list = (await me.get(`/api/testimonials/requests?company_id=${me.companyId}`)).json();
    expect(list.find((r: { id: string }) => r.id === testimonial.id).link).toBe(testimonial.link);
    expect((await me.get(`/api/testimonials/request-safe/${testimonial.id}?company_id=${me.companyId}`)).json().testimonial.link).toBe(testimonial.link);
    const opened = await t.app.inject({ method: 'GET', url: `/api/public/testimonial/validate/${row!.token}` });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().testimonial).toMatchObject({ customer_name: 'Noé', customer_email: null });

    // With an address but 'link': stored, not mailed. An e-mail request sent after it arrives, and it alone.
    const withAddress = await me.post('/api/testimonials/request', { delivery: 'link', customer_email: 'quiet@client.test', customer_name: 'Inès', question_ids: ids, language: 'english' });
    expect(withAddress.statusCode, withAddress.body).toBe(201);
    expect(withAddress.json().testimonial).toMatchObject({ delivery: 'link', customer_email: 'quiet@client.test' });
    const mailed = await me.post('/api/testimonials/request', { delivery: 'email', customer_email: 'loud@client.test', customer_name: 'Max', question_ids: ids, language: 'english' });
    expect(mailed.json().testimonial.delivery).toBe('email');
    await smtp.waitFor('loud@client.test', /Atelier Vélo would love a short video from you/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.mails.filter((m) => m.to.includes('quiet@client.test'))).toEqual([]);
    expect(smtp.mails.some((m) => m.links.includes(testimonial.link))).toBe(false);

    // A request without an address is never reminded by e-mail.
    const remind = await me.post(`/api/testimonials/request/${testimonial.id}/remind`, { company_id: me.companyId });
    expect(remind.statusCode).toBe(409);
    expect(remind.json()).toMatchObject({ code: 'conflict', reason: 'reminder_no_email' });
    expect(remind.json().error).toMatch(/no e-mail address/);
  });

  it('refuses e-mail delivery without an address, with a message that says what to do', async () => {
    const { me, ids } = await companyWithQuestions();
    for (const body of [
      { delivery: 'email', customer_email: '', customer_name: 'A', question_ids: ids, language: 'english' },
      { customer_name: 'A', question_ids: ids, language: 'english' },
    ]) {
      const res = await me.post('/api/testimonials/request', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ field: 'customer_email' });
      expect(res.json().error).toMatch(/Enter the customer's e-mail address, or choose to copy the link/);
    }
    const unknown = await me.post('/api/testimonials/request', { delivery: 'sms', customer_name: 'A', question_ids: ids, language: 'english' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().field).toBe('delivery');
    // A malformed address is refused for either delivery.
    const bad = await me.post('/api/testimonials/request', { delivery: 'link', customer_email: 'nope', customer_name: 'A', question_ids: ids, language: 'english' });
    expect(bad.json().field).toBe('customer_email');
    expect((await me.get(`/api/testimonials/requests?company_id=${me.companyId}`)).json()).toEqual([]);
  });

  it("hides another company's requests (404 by id, no_permission by company_id)", async () => {
    const { me, ids } = await companyWithQuestions();
    const other = await signedInCompany(t);
    const { testimonial } = (await me.post('/api/testimonials/request', { customer_email: 'x@client.test', customer_name: 'X', question_ids: ids, language: 'english' })).json();
    const hidden = await other.get(`/api/testimonials/request-safe/${testimonial.id}?company_id=${other.companyId}`);
    expect(hidden.statusCode).toBe(404);
    // Its private link is answered to no one else (decision 173).
    expect(hidden.body).not.toContain(testimonial.link.split('/').pop());
    expect((await other.get(`/api/testimonials/request-safe/${testimonial.id}?company_id=${me.companyId}`)).statusCode).toBe(403);
    expect((await other.post(`/api/testimonials/request/${testimonial.id}/remind`, { company_id: other.companyId })).statusCode).toBe(404);
    expect((await other.get(`/api/testimonials/requests?company_id=${me.companyId}`)).statusCode).toBe(403);
    expect((await other.get(`/api/testimonials/requests?company_id=${other.companyId}`)).json()).toEqual([]);
  });

  it('marks onboarding completed with an empty body', async () => {
    const me = await signedInCompany(t);
    const res = await t.app.inject({ method: 'PUT', url: '/api/user/complete-onboarding', headers: { ...me.headers, 'content-type': 'application/json' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, onboarding_completed: true });
    const meRes = await me.get('/api/auth/me');
    expect(meRes.json().user.onboarding_completed).toBe(true);
  });
});

describe('overview stats', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts questions, requests by status and credits for the caller company only', async () => {
    const me = await signedInCompany(t);
    const other = await signedInCompany(t);
    const q = (await me.post('/api/questions/add', { company_id: me.companyId, text: 'Q?', order_position: 1 })).json();
    await me.post('/api/questions/add', { company_id: me.companyId, text: 'Q2?', order_position: 2 });
    const ids = [];
    for (const name of ['A', 'B', 'C']) {
      ids.push((await me.post('/api/testimonials/request', { customer_email: `${name}@x.test`, customer_name: name, question_ids: [q.id], language: 'english' })).json().testimonial.id);
    }
    await t.ctx.db.update(testimonialRequests).set({ status: 'completed' }).where(eq(testimonialRequests.id, ids[0]));
    await t.ctx.db.update(testimonialRequests).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(testimonialRequests.id, ids[1]));
    const res = await me.get(`/api/testimonials/stats?company_id=${me.companyId}`);
    expect(res.json()).toEqual({ users: 1, questions: 2, testimonials: 3, completed: 1, requested: 1, credits: 1 });
    expect((await other.get(`/api/testimonials/stats?company_id=${me.companyId}`)).statusCode).toBe(403);
    expect((await other.get(`/api/testimonials/stats?company_id=${other.companyId}`)).json()).toMatchObject({ questions: 0, testimonials: 0 });
  });
});
