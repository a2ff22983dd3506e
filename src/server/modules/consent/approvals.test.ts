import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvals, companies, consentEvents, consents, testimonialRequests } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { paidTestimonial } from '../../test/publishing.js';
import { startSmtpCatcher } from '../../test/smtp-catcher.js';
import { completedTestimonial } from '../../test/testimonials.js';

/**
 * Issue 29, the approval of the final cut on the company's side, through the real outbox and SMTP: the
 * company setting and the testimonial's switch, asking (the e-mail in the request's language with its
 * own link), the 24-hour reminder with a new link, the publish gate in each state, and the consent record.
 * The customer's decisions are written to the rows here (the customer's pages are tested with them).
 */
describe('approvals, company side', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    t = await createTestApp({ work: true, env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
  const tokenOf = (link: string) => /\/approve\/([A-Za-z0-9_-]{43})$/.exec(link)?.[1];

  it('asks, reminds at most once a day with a new link, and publishes only an approved video', async () => {
    const me = await signedInCompany(t);
    const setting = await me.put('/api/user/approval-setting', { approval_required: true });
    expect(setting.json()).toEqual({ approval_required: true });
    expect((await me.get('/api/user/profile')).json().user.company).toMatchObject({ approval_required: true });

    await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
    const { tm, response } = await paidTestimonial(t, me);
    await t.ctx.db.update(testimonialRequests).set({ language: 'french' }).where(eq(testimonialRequests.id, tm.id));
    const [request] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, tm.id));
    const publish = () => me.post('/api/publications', { testimonialId: tm.id, responseId: response.id });

    expect((await publish()).json()).toMatchObject({ code: 'conflict', reason: 'approval_required' });
    const asked = await me.post(`/api/testimonials/${tm.id}/approvals`, { responseId: response.id });
    expect(asked.statusCode, asked.body).toBe(201);
    const approval = asked.json();
    expect(approval).toMatchObject({ jobId: null, responseId: response.id, state: 'pending', comment: null, reminderCount: 0, decidedAt: null });
    expect(Date.parse(approval.canRemindAt) - Date.parse(approval.lastSentAt)).toBe(24 * 3600_000);

    // The e-mail, in the request's language, with a link of its own whose token is stored only hashed.
    const first = await smtp.waitFor(request!.customerEmail!.toLowerCase(), /vous demande d’approuver/);
    const link = first.links.find((l) => l.includes('/approve/'))!;
    expect(link.startsWith(`${t.config.appUrl}/approve/`)).toBe(true);
    const [row] = await t.ctx.db.select().from(approvals).where(eq(approvals.id, approval.id));
    expect(row!.tokenHash).toBe(sha256(tokenOf(link)!));
    expect(JSON.stringify(row)).not.toContain(tokenOf(link)!);

    expect((await publish()).json()).toMatchObject({ code: 'conflict', reason: 'approval_pending' });
    const early = await me.post(`/api/approvals/${approval.id}/remind`);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'conflict', reason: 'approval_reminder_too_soon', params: { hours: 24 } });

    // A day later: the reminder goes, with a new link (the old one stops working).
    await t.ctx.db.update(approvals).set({ lastSentAt: new Date(Date.now() - 25 * 3600_000) }).where(eq(approvals.id, approval.id));
    const reminded = await me.post(`/api/approvals/${approval.id}/remind`);
    expect(reminded.statusCode, reminded.body).toBe(200);
    expect(reminded.json()).toMatchObject({ state: 'pending', reminderCount: 1 });
    const second = await smtp.waitFor(request!.customerEmail!.toLowerCase(), /Rappel/);
    const newLink = second.links.find((l) => l.includes('/approve/'))!;
    expect(newLink).not.toBe(link);
    const [rotated] = await t.ctx.db.select().from(approvals).where(eq(approvals.id, approval.id));
    expect(rotated!.tokenHash).toBe(sha256(tokenOf(newLink)!));
    expect((await me.post(`/api/approvals/${approval.id}/remind`)).json()).toMatchObject({ reason: 'approval_reminder_too_soon' });

    // The customer asks for changes (their page writes this).
    await t.ctx.db.update(approvals).set({ state: 'changes_requested', comment: 'Plus court, svp', decidedAt: new Date() }).where(eq(approvals.id, approval.id));
    await t.ctx.db.insert(consentEvents).values({ companyId: me.companyId, requestId: tm.id, kind: 'changes_requested', approvalId: approval.id, ip: '10.1.2.3', userAgent: 'Phone' });
    expect((await publish()).json()).toMatchObject({ code: 'conflict', reason: 'approval_changes_requested' });
    expect((await me.post(`/api/approvals/${approval.id}/remind`)).json()).toMatchObject({ code: 'conflict', reason: 'approval_already_decided' });
    const detail = async () => (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json().testimonial;
    expect((await detail()).customer_control).toMatchObject({
      approval_required: true,
      approval_required_override: null,
      approvals: [{ id: approval.id, state: 'changes_requested', comment: 'Plus court, svp', canRemindAt: null }],
    });

    // Asked again, then approved: published.
    const again = (await me.post(`/api/testimonials/${tm.id}/approvals`, { responseId: response.id })).json();
    expect((await publish()).json()).toMatchObject({ reason: 'approval_pending' });
    await t.ctx.db.update(approvals).set({ state: 'approved', decidedAt: new Date() }).where(eq(approvals.id, again.id));
    await t.ctx.db.insert(consentEvents).values({ companyId: me.companyId, requestId: tm.id, kind: 'approved', approvalId: again.id, ip: '10.1.2.3', userAgent: 'Phone' });
    expect((await publish()).statusCode).toBe(201);
    expect((await detail()).customer_control.approvals.map((a: { id: string }) => a.id)).toEqual([again.id, approval.id]);

    // The testimonial's switch overrides the company's setting; null follows it again.
    expect((await me.put(`/api/testimonials/${tm.id}/approval-required`, { required: false })).json()).toEqual({ approval_required: false, approval_required_override: false });
    expect((await me.put(`/api/testimonials/${tm.id}/approval-required`, { required: null })).json()).toEqual({ approval_required: true, approval_required_override: null });

    // The consent record: the consent given, then every event oldest first.
    await t.ctx.db.insert(consentEvents).values({ companyId: me.companyId, requestId: tm.id, kind: 'removal_requested', responseId: response.id, ip: '10.1.2.3', userAgent: 'Phone' });
    const record = await me.get(`/api/testimonials/${tm.id}/consent-record`);
    expect(record.statusCode, record.body).toBe(200);
    const [consent] = await t.ctx.db.select().from(consents).where(eq(consents.requestId, tm.id));
    const body = record.json();
    expect(body.testimonial).toMatchObject({ id: tm.id, customer_email: request!.customerEmail, language: 'french' });
    expect(body.consent).toMatchObject({ text: consent!.text, ip: consent!.ip, withdrawnAt: null });
    expect(body.events.map((e: { kind: string }) => e.kind)).toEqual(['given', 'approval_requested', 'approval_reminded', 'changes_requested', 'approval_requested', 'approved', 'removal_requested']);
    expect(body.events[0]).toMatchObject({ ip: consent!.ip, userAgent: consent!.userAgent, at: consent!.acceptedAt.toISOString() });
    expect(body.events[3]).toMatchObject({ comment: 'Plus court, svp', ip: '10.1.2.3', approvalId: approval.id });
    expect(body.events[6]).toMatchObject({ responseId: response.id, question: response.questionText });

    // Another company sees none of it, and cannot ask, remind or switch.
    const other = await signedInCompany(t);
    expect((await other.get(`/api/testimonials/${tm.id}/consent-record`)).statusCode).toBe(404);
    expect((await other.post(`/api/testimonials/${tm.id}/approvals`, { responseId: response.id })).statusCode).toBe(404);
    expect((await other.post(`/api/approvals/${approval.id}/remind`)).statusCode).toBe(404);
    expect((await other.put(`/api/testimonials/${tm.id}/approval-required`, { required: false })).statusCode).toBe(404);
  });

  it('cannot ask a customer without an e-mail address, nor about a video not ready', async () => {
    const me = await signedInCompany(t);
    await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
    const tm = await completedTestimonial(t, me);
    expect((await me.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(200);
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, tm.id));
    await t.ctx.db.update(testimonialRequests).set({ customerEmail: null, delivery: 'link' }).where(eq(testimonialRequests.id, row!.id));
    const { testimonial_responses } = (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json().testimonial;
    await expect.poll(async () => (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json().testimonial.testimonial_responses[0].media.phase, { timeout: 60_000 }).toBe('ready');
    const res = await me.post(`/api/testimonials/${tm.id}/approvals`, { responseId: testimonial_responses[0].id });
    expect(res.json()).toMatchObject({ code: 'conflict', reason: 'approval_no_email' });
    expect((await me.post(`/api/testimonials/${tm.id}/approvals`, { jobId: tm.id })).statusCode).toBe(404);
    expect((await me.post(`/api/testimonials/${tm.id}/approvals`, {})).statusCode).toBe(400);
  });
});
