import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../../contract/api/webhooks.schema.js';
import { jobs, testimonialRequests } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { paidTestimonial } from '../../test/publishing.js';
import { webhookReceiver } from '../../test/webhook-receiver.js';
import { withdrawConsent } from '../consent/customer.service.js';
import { hashCustomerToken, newCustomerToken } from '../consent/customer.tokens.js';
import { JobFailure, runJob } from '../jobs/jobs.service.js';

/**
 * Every event type from its real change point, with the worker running: the HTTP calls of the dashboard
 * (pay, render, publish, unpublish), the customer's withdrawal, and the jobs core settling a render. The
 * worker delivers each to a real receiver on loopback, which verifies it with the standardwebhooks library.
 */
describe('webhook events from their change points', () => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: 'on' }, work: true });
    receiver = await webhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const arrived = (type: string) => receiver.received.filter((r) => r.type === type);
  const waitFor = (type: string) => expect.poll(() => arrived(type).length, { timeout: 60_000, interval: 200 }).toBeGreaterThan(0);

  it('delivers each event type once, signed and verified', async () => {
    const me = await signedInCompany(t);
    const created = await me.post('/api/webhooks', { url: receiver.url, events: [...WEBHOOK_EVENT_TYPES] });
    expect(created.statusCode, created.body).toBe(201);
    receiver.setSecret(created.json().secret);

    // Submitted and paid: through the save and pay calls (the worker transcodes the answer meanwhile).
    const { tm, response } = await paidTestimonial(t, me);
    await waitFor('testimonial.submitted');
    await waitFor('testimonial.paid');
    expect(arrived('testimonial.submitted')[0]!.data).toEqual({ testimonial_id: tm.id, answers: 1 });

    // A render made by the worker: render.ready.
    const intro = await me.post(`/api/testimonials/response/${response.id}/generate-modified/intro`, { language: 'en' });
    expect(intro.statusCode, intro.body).toBeLessThan(300);
    await waitFor('render.ready');
    expect(arrived('render.ready')[0]!.data).toMatchObject({ testimonial_id: tm.id, response_id: response.id, kind: 'intro' });

    // A render failing for good, settled by the jobs core: render.failed.
    const [failing] = await t.ctx.db
      .insert(jobs)
      .values({ companyId: me.companyId, kind: 'subtitles', requestId: tm.id, responseId: response.id, params: {} })
      .returning();
    await runJob(t.ctx, failing!.id, { attempt: 0 }, async () => {
      throw new JobFailure('render_failed');
    });
    await waitFor('render.failed');
    expect(arrived('render.failed')[0]!.data).toMatchObject({ job_id: failing!.id, kind: 'subtitles', reason: 'render_failed' });

    // Published and unpublished through the dashboard's calls.
    const published = await me.post('/api/publications', { testimonialId: tm.id, responseId: response.id });
    expect(published.statusCode, published.body).toBe(201);
    await waitFor('publication.published');
    expect(arrived('publication.published')[0]!.data).toMatchObject({ publication_id: published.json().id, url: published.json().url });
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/publications/${published.json().id}`, headers: me.headers });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    await waitFor('publication.unpublished');

    // The customer withdraws their consent from their own page's service.
    const token = newCustomerToken();
    await t.ctx.db
      .update(testimonialRequests)
      .set({ customerPageTokenHash: hashCustomerToken(token) })
      .where(eq(testimonialRequests.id, tm.id));
    await withdrawConsent(t.ctx, token, { ip: '10.1.2.3', userAgent: 'test' });
    await waitFor('consent.withdrawn');

    // Once each, every one verified, each with its own webhook-id.
    for (const type of WEBHOOK_EVENT_TYPES) expect(arrived(type), type).toHaveLength(1);
    expect(receiver.received.every((r) => r.verified && r.status === 200)).toBe(true);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(receiver.received.length);
  }, 180_000);
});
