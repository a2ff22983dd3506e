import { readFile } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TWall } from '../../../contract/api/wall.schema.js';
import {
  approvals,
  companies,
  consentEvents,
  consents,
  jobs,
  publications,
  testimonialRequests,
  testimonialResponses,
  transcriptions,
} from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { makeClip, multipart } from '../../test/clips.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial } from '../../test/testimonials.js';
import { actionProof, hashCustomerToken, newCustomerToken } from './customer.tokens.js';

type Company = Awaited<ReturnType<typeof signedInCompany>>;
interface QueuedMail {
  to: string;
  subject: string;
  html: string;
  text: string;
}

/**
 * The customer's side of issue 29 through the real routes on PGlite, with the real outbox (the mail
 * messages queued in the transactions, read from the queue's table: no worker runs here, so nothing is
 * sent and the tests stay quick; answers play from their upload).
 */
describe('the customer stays in control', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const postForm = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: new URLSearchParams(fields).toString() });

  const queuedMails = async (to: string): Promise<QueuedMail[]> => {
    const { rows } = (await t.ctx.database.executeSql("select data from pgboss.job where name = 'send-mail' order by created_on")) as { rows: { data: QueuedMail }[] };
    return rows.map((r) => r.data).filter((m) => m.to === to);
  };
  const queued = async (name: string, requestId: string) => {
    const { rows } = (await t.ctx.database.executeSql('select data, start_after from pgboss.job where name = $1', [name])) as { rows: { data: { requestId: string }; start_after: Date }[] };
    return rows.filter((r) => r.data.requestId === requestId);
  };

  /** A submitted, paid testimonial with its answer published (and a transcript for captions); its page token from the receipt. */
  async function publishedTestimonial(me?: Company, over: { language?: 'english' | 'french' } = {}) {
    me ??= await signedInCompany(t);
    await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
    const tm = await completedTestimonial(t, me, over);
    expect((await me.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(200);
    const [request] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, tm.id));
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    await t.ctx.db.update(testimonialResponses).set({ videoKey: response!.originalKey, width: 360, height: 640 }).where(eq(testimonialResponses.id, response!.id));
    await t.ctx.db.insert(transcriptions).values({ responseId: response!.id, companyId: me.companyId, engine: 'edited', language: 'en', segments: [{ start: 0.2, end: 1.5, text: 'Lovely work' }] });
    const created = await me.post('/api/publications', { testimonialId: tm.id, responseId: response!.id });
    expect(created.statusCode, created.body).toBe(201);
    const pub = created.json<{ id: string; slug: string; url: string }>();
    const receipt = (await queuedMails(request!.customerEmail!)).find((m) => m.text.includes('/my-testimonial/'));
    const token = /\/my-testimonial\/([A-Za-z0-9_-]{43})/.exec(receipt?.text ?? '')?.[1];
    expect(token).toBeDefined();
    return { me, tm, request: request!, response: response!, pub, token: token!, receipt: receipt! };
  }

  const proofFrom = (body: string) => /name="proof" value="([^"]+)"/.exec(body)?.[1] ?? '';

  it('sends the receipt in the request’s language with the answers, their lengths, the consent and a private link stored hashed', async () => {
    const { request, token, receipt, tm } = await publishedTestimonial(undefined, { language: 'french' });
    expect(receipt.subject).toMatch(/^Merci pour votre témoignage pour /);
    expect(receipt.text).toContain('Question');
    expect(receipt.text).toMatch(/\(0:0[12]\)/);
    const [consent] = await t.ctx.db.select().from(consents).where(eq(consents.requestId, tm.id));
    expect(receipt.text).toContain(consent!.text);
    expect(receipt.text).toContain(`http://app.test/my-testimonial/${token}`);
    // Stored only as its hash, distinct from the recording link's token.
    expect(request.customerPageTokenHash).toBe(hashCustomerToken(token));
    expect(request.token).not.toBe(token);
    const page = await get(`/my-testimonial/${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="fr">');
    expect(page.body).toContain('Votre témoignage pour');
  });

  it('gives a request without e-mail its page address in the save answer, once, and sends no receipt', async () => {
    const me = await signedInCompany(t);
    const q = (await me.post('/api/questions/add', { company_id: me.companyId, text: 'Why us?', order_position: 1 })).json();
    const { testimonial } = (await me.post('/api/testimonials/request', { customer_name: 'Lin', question_ids: [q.id], delivery: 'link', language: 'english' })).json();
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, testimonial.id));
    const clip = await readFile(await makeClip({ format: 'webm', seconds: 1, tone: 500 }));
    const form = () =>
      multipart([
        { name: 'questionIds[0]', value: q.id },
        { name: 'bgColors[0]', value: '#000000' },
        { name: 'name', value: 'Lin' },
        { name: 'testimonialId', value: testimonial.id },
        { name: 'token', value: row!.token },
        { name: 'consentVersion', value: 'image-rights-v1' },
        { name: 'videos', filename: 'video0.webm', content: clip, type: 'video/webm' },
      ]);
    const first = await t.app.inject({ method: 'POST', url: '/api/public/testimonial/save', ...form() });
    expect(first.statusCode, first.body).toBe(200);
    const url = first.json<{ customerPageUrl?: string }>().customerPageUrl;
    expect(url).toMatch(/^http:\/\/app\.test\/my-testimonial\/[A-Za-z0-9_-]{43}$/);
    expect((await get(new URL(url!).pathname)).statusCode).toBe(200);
    // A retried identical save answers the first result, without the address.
    const again = await t.app.inject({ method: 'POST', url: '/api/public/testimonial/save', ...form() });
    expect(again.statusCode).toBe(200);
    expect(again.json<{ customerPageUrl?: string }>().customerPageUrl).toBeUndefined();
    const { rows } = (await t.ctx.database.executeSql("select data from pgboss.job where name = 'send-mail'")) as { rows: { data: QueuedMail }[] };
    expect(rows.some((r) => r.data.text.includes(new URL(url!).pathname))).toBe(false);
  });

  it('shows the answers playable, the publications and the consent, privately; nothing of another testimonial', async () => {
    const { me, token, response, pub, tm } = await publishedTestimonial();
    const { slug: wallSlug } = (await me.get('/api/wall')).json<TWall>();
    const other = await publishedTestimonial(me);

    const page = await get(`/my-testimonial/${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-robots-tag']).toMatch(/noindex/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('same-origin');
    expect(page.body).toContain('<meta name="robots" content="noindex,nofollow">');
    expect(page.body).toContain(`<video data-testid="customer-answer" controls playsinline preload="metadata" src="/my-testimonial/${token}/answers/${response.id}">`);
    expect(page.body).toContain(`href="/my-testimonial/${token}/remove/${response.id}"`);
    expect(page.body).toContain('data-testid="withdraw-link"');
    expect(page.body).toContain(`href="http://app.test/v/${pub.slug}"`);
    expect(page.body).toContain(`href="http://app.test/wall/${wallSlug}"`);
    expect(page.body).toContain('I authorise');
    expect(page.body).not.toContain(other.pub.slug);
    expect(page.body).not.toContain(other.response.id);
    expect(page.body).not.toContain(tm.id);

    const video = await get(`/my-testimonial/${token}/answers/${response.id}`, { range: 'bytes=0-99' });
    expect(video.statusCode).toBe(206);
    expect(video.headers['cache-control']).toBe('private, no-store');
    // Another testimonial's answer through this page's routes: not there.
    expect((await get(`/my-testimonial/${token}/answers/${other.response.id}`)).statusCode).toBe(404);
    expect((await get(`/my-testimonial/${token}/remove/${other.response.id}`)).statusCode).toBe(404);
    expect((await get(`/my-testimonial/${token}/answers/nope`)).statusCode).toBe(404);

    // Unknown tokens and paths under the prefix: a small 404 page in the browser's language, never the web app.
    const unknown = await get(`/my-testimonial/${newCustomerToken()}`, { 'accept-language': 'fr-FR' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('<html lang="fr">');
    expect(unknown.body).toContain('Cette page n&#39;existe pas');
    expect((await get('/my-testimonial/short')).statusCode).toBe(404);
    expect((await get(`/my-testimonial/${token}/elsewhere/x`)).statusCode).toBe(404);
  });

  it('withdraws consent after a confirmation: everything public is gone at once, jobs and approvals cancelled, recorded, the company told, deletion scheduled', async () => {
    const { me, token, pub, tm, response } = await publishedTestimonial();
    const { slug: wallSlug } = (await me.get('/api/wall')).json<TWall>();
    expect((await get(`/wall/${wallSlug}`)).body).toContain(pub.slug);
    // Read once so that this process's page cache holds it.
    expect((await get(`/v/${pub.slug}`)).statusCode).toBe(200);
    const approvalToken = newCustomerToken();
    await t.ctx.db.insert(approvals).values({ companyId: me.companyId, requestId: tm.id, responseId: response.id, tokenHash: hashCustomerToken(approvalToken) });

    const confirm = await get(`/my-testimonial/${token}/withdraw`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('data-testid="withdraw-form"');
    const proof = proofFrom(confirm.body);
    expect(proof).not.toBe('');
    const url = `/my-testimonial/${token}/withdraw`;
    // Refused: no field, a forged one, another action's, another site.
    expect((await postForm(url, {})).statusCode).toBe(403);
    expect((await postForm(url, { proof: 'x'.repeat(43) })).statusCode).toBe(403);
    expect((await postForm(url, { proof: actionProof(t.ctx.secrets.jwt, hashCustomerToken(token), `remove:${response.id}`) })).statusCode).toBe(403);
    expect((await postForm(url, { proof }, { origin: 'https://evil.test' })).statusCode).toBe(403);
    expect((await postForm(url, { proof }, { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await get(`/v/${pub.slug}`)).statusCode).toBe(200);

    const done = await postForm(url, { proof }, { origin: 'http://app.test', 'sec-fetch-site': 'same-origin', 'user-agent': 'Customer browser' });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/my-testimonial/${token}?done=withdrawn`);

    // At once in this process, whatever the page cache held.
    for (const path of [`/v/${pub.slug}`, `/embed/${pub.slug}`, `/v/${pub.slug}/video.mp4`, `/v/${pub.slug}/captions.vtt`, `/api/oembed?url=${encodeURIComponent(pub.url)}`]) {
      expect((await get(path)).statusCode, path).toBe(404);
    }
    expect((await get(`/wall/${wallSlug}`)).body).not.toContain(pub.slug);

    const [request] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, tm.id));
    expect(request!.consentWithdrawnAt).toBeInstanceOf(Date);
    const [consent] = await t.ctx.db.select().from(consents).where(eq(consents.requestId, tm.id));
    expect(consent).toMatchObject({ withdrawnAt: request!.consentWithdrawnAt, withdrawnUserAgent: 'Customer browser' });
    expect(consent!.withdrawnIp).toBeTruthy();
    const [publication] = await t.ctx.db.select().from(publications).where(eq(publications.id, pub.id));
    expect(publication).toMatchObject({ unpublishedReason: 'consent_withdrawn' });
    const testimonialJobs = await t.ctx.db.select().from(jobs).where(eq(jobs.requestId, tm.id));
    expect(testimonialJobs.length).toBeGreaterThan(0);
    expect(testimonialJobs.every((j) => j.phase === 'cancelled' || j.phase === 'ready' || j.phase === 'failed')).toBe(true);
    expect((await t.ctx.db.select().from(approvals).where(eq(approvals.requestId, tm.id)))[0]!.state).toBe('cancelled');
    expect(await t.ctx.db.select({ kind: consentEvents.kind }).from(consentEvents).where(eq(consentEvents.requestId, tm.id))).toEqual([{ kind: 'withdrawn' }]);
    expect((await queuedMails(me.email)).some((m) => /withdrew their consent/.test(m.subject))).toBe(true);
    const [deletion] = await queued('delete-withdrawn-media', tm.id);
    expect(deletion!.start_after.getTime() - Date.now()).toBeGreaterThan(29.9 * 86_400_000);

    // The page says so, honestly; no action is left; the approval link shows the withdrawal.
    const page = await get(done.headers.location as string);
    expect(page.body).toContain('data-testid="customer-notice"');
    expect(page.body).toContain('data-testid="customer-withdrawn"');
    expect(page.body).toContain('What we cannot recall');
    expect(page.body).toMatch(/will be deleted on .* at the latest/);
    expect(page.body).not.toContain('data-testid="withdraw-link"');
    expect(page.body).not.toContain('data-testid="remove-answer-link"');
    expect(page.body).not.toContain(`http://app.test/v/${pub.slug}`);
    expect((await get(`/approve/${approvalToken}`)).body).toContain('data-state="withdrawn"');

    // A second withdrawal changes nothing.
    const twice = await postForm(url, { proof });
    expect(twice.statusCode).toBe(303);
    expect(twice.headers.location).toBe(`/my-testimonial/${token}`);
    expect(await t.ctx.db.select().from(consentEvents).where(and(eq(consentEvents.requestId, tm.id), eq(consentEvents.kind, 'withdrawn')))).toHaveLength(1);
    // And a removal is refused by the state: the page shows it.
    expect((await postForm(`/my-testimonial/${token}/remove/${response.id}`, { proof: actionProof(t.ctx.secrets.jwt, hashCustomerToken(token), `remove:${response.id}`) })).statusCode).toBe(303);
    expect((await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, response.id)))[0]!.removalRequestedAt).toBeNull();
  });

  it('removes one answer after a confirmation: its publications taken down, its jobs cancelled, recorded, the company told', async () => {
    const { me, token, pub, tm, response } = await publishedTestimonial();
    // A render of several answers names this one among its caption parts: it goes too.
    const [job] = await t.ctx.db.select().from(jobs).where(eq(jobs.requestId, tm.id));
    const [merged] = await t.ctx.db
      .insert(publications)
      .values({ companyId: me.companyId, requestId: tm.id, jobId: job!.id, slug: `merged${newCustomerToken().slice(0, 16)}`, videoKey: response.originalKey, captionParts: [{ responseId: response.id, offset: 0 }] })
      .returning();
    // A merge over every answer, queued: it would still contain the answer.
    const [merge] = await t.ctx.db.insert(jobs).values({ companyId: me.companyId, kind: 'merge', requestId: tm.id }).returning();
    const confirm = await get(`/my-testimonial/${token}/remove/${response.id}`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('data-testid="remove-answer-form"');
    const proof = proofFrom(confirm.body);
    const url = `/my-testimonial/${token}/remove/${response.id}`;
    expect((await postForm(url, { proof: actionProof(t.ctx.secrets.jwt, hashCustomerToken(token), 'withdraw') })).statusCode).toBe(403);
    expect((await postForm(url, { proof }, { origin: 'https://evil.test' })).statusCode).toBe(403);
    expect((await postForm(`/my-testimonial/${token}/remove/00000000-0000-4000-8000-000000000000`, { proof })).statusCode).toBe(404);

    const done = await postForm(url, { proof });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/my-testimonial/${token}?done=removed`);
    expect((await get(`/v/${pub.slug}`)).statusCode).toBe(404);
    const [answer] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, response.id));
    expect(answer!.removalRequestedAt).toBeInstanceOf(Date);
    expect((await t.ctx.db.select().from(publications).where(eq(publications.id, pub.id)))[0]!.unpublishedReason).toBe('answer_removed');
    expect((await t.ctx.db.select().from(publications).where(eq(publications.id, merged!.id)))[0]!.unpublishedReason).toBe('answer_removed');
    expect((await t.ctx.db.select().from(jobs).where(eq(jobs.responseId, response.id))).every((j) => j.phase !== 'queued' && j.phase !== 'running')).toBe(true);
    expect((await t.ctx.db.select().from(jobs).where(eq(jobs.id, merge!.id)))[0]!.phase).toBe('cancelled');
    const events = await t.ctx.db.select().from(consentEvents).where(eq(consentEvents.requestId, tm.id));
    expect(events).toMatchObject([{ kind: 'removal_requested', responseId: response.id }]);
    expect((await queuedMails(me.email)).some((m) => /asked for an answer to be removed/.test(m.subject))).toBe(true);
    const page = await get(`/my-testimonial/${token}`);
    expect(page.body).toContain('data-testid="answer-removal-asked"');
    expect(page.body).not.toContain('data-testid="remove-answer-link"');
    // Consent still stands: withdrawal is still offered.
    expect(page.body).toContain('data-testid="withdraw-link"');
  });

  it('lets the customer approve or ask for changes with a comment, once; a cancelled approval says so', async () => {
    const { me, tm, response, token: pageToken } = await publishedTestimonial();
    const approvalToken = newCustomerToken();
    await t.ctx.db.insert(approvals).values({ companyId: me.companyId, requestId: tm.id, responseId: response.id, tokenHash: hashCustomerToken(approvalToken) });
    // Single purpose: neither token opens the other page.
    expect((await get(`/approve/${pageToken}`)).statusCode).toBe(404);
    expect((await get(`/my-testimonial/${approvalToken}`)).statusCode).toBe(404);

    const page = await get(`/approve/${approvalToken}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.body).toContain('data-testid="approve-form"');
    expect(page.body).toContain('data-testid="changes-form"');
    expect((await get(`/approve/${approvalToken}/video`, { range: 'bytes=0-9' })).statusCode).toBe(206);
    const changesProof = /action="\/approve\/[^"]+\/changes"[^>]*><input type="hidden" name="proof" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const url = `/approve/${approvalToken}/changes`;
    expect((await postForm(url, { proof: changesProof, comment: '   ' })).statusCode).toBe(400);
    const tooLong = await postForm(url, { proof: changesProof, comment: 'x'.repeat(2001) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).toContain('role="alert"');
    expect((await postForm(url, { proof: changesProof, comment: 'Cut the end' }, { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await postForm(url, { comment: 'Cut the end' })).statusCode).toBe(403);

    const done = await postForm(url, { proof: changesProof, comment: 'Please cut the <b>end</b>' });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/approve/${approvalToken}?done=changes`);
    const [row] = await t.ctx.db.select().from(approvals).where(eq(approvals.tokenHash, hashCustomerToken(approvalToken)));
    expect(row).toMatchObject({ state: 'changes_requested', comment: 'Please cut the <b>end</b>' });
    expect(row!.decidedAt).toBeInstanceOf(Date);
    const shown = await get(done.headers.location as string);
    expect(shown.body).toContain('data-state="changes_requested"');
    expect(shown.body).toContain('Please cut the &lt;b&gt;end&lt;/b&gt;');
    expect(await t.ctx.db.select({ kind: consentEvents.kind }).from(consentEvents).where(eq(consentEvents.requestId, tm.id))).toEqual([{ kind: 'changes_requested' }]);
    expect((await queuedMails(me.email)).some((m) => /asked for changes/.test(m.subject))).toBe(true);
    // Decided: approving afterwards changes nothing.
    const late = await postForm(`/approve/${approvalToken}/approve`, { proof: actionProof(t.ctx.secrets.jwt, hashCustomerToken(approvalToken), 'approve') });
    expect(late.statusCode).toBe(303);
    expect((await t.ctx.db.select().from(approvals).where(eq(approvals.id, row!.id)))[0]!.state).toBe('changes_requested');

    // Another approval, approved; then a cancelled one.
    const second = newCustomerToken();
    await t.ctx.db.insert(approvals).values({ companyId: me.companyId, requestId: tm.id, responseId: response.id, tokenHash: hashCustomerToken(second) });
    const approved = await postForm(`/approve/${second}/approve`, { proof: actionProof(t.ctx.secrets.jwt, hashCustomerToken(second), 'approve') });
    expect(approved.headers.location).toBe(`/approve/${second}?done=approved`);
    expect((await get(`/approve/${second}`)).body).toContain('data-state="approved"');
    const third = newCustomerToken();
    await t.ctx.db.insert(approvals).values({ companyId: me.companyId, requestId: tm.id, responseId: response.id, tokenHash: hashCustomerToken(third), state: 'cancelled' });
    const cancelled = await get(`/approve/${third}`);
    expect(cancelled.body).toContain('data-state="cancelled"');
    expect(cancelled.body).not.toContain('data-testid="approve-form"');
    expect((await get(`/approve/${third}/video`)).statusCode).toBe(404);
  });
});
