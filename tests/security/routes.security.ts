/**
 * Every route of the server's own route table, attacked: a route that is not declared public here must
 * refuse a missing, expired, foreign-key or malformed token, and no route may hand one company's data
 * to another or change it. A route added later is covered without touching this file, and a new public
 * route fails this suite until someone decides here that it is public.
 */
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testimonialResponses, webhookEndpoints } from '../../src/server/db/schema.js';
import { signAccessToken } from '../../src/server/modules/auth/tokens.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';
import { completedTestimonial } from '../../src/server/test/testimonials.js';

/** Routes anyone may call, each with the reason it is public. */
const PUBLIC_ROUTES: Record<string, string> = {
  'GET /api/health': 'liveness probe',
  'GET /api/ready': 'readiness probe',
  'GET /metrics': 'guarded by its own token (METRICS_TOKEN), absent without it',
  'POST /api/client-errors': 'the browser reports its own errors, rate-limited',
  'POST /api/auth/signup': 'account creation',
  'GET /api/auth/confirm-email': 'e-mail link carrying its own token',
  'POST /api/auth/resend-confirmation': 'by e-mail address, rate-limited',
  'POST /api/auth/signin': 'sign-in',
  'POST /api/auth/refresh': 'carries the refresh token',
  'POST /api/auth/signout': 'revokes the refresh token it carries',
  'POST /api/auth/signin-google': 'starts Google sign-in',
  'GET /api/auth/google/callback': 'OpenID Connect redirect with state and PKCE',
  'POST /api/auth/process-auth-callback': 'one-time code from the Google callback',
  'POST /api/auth/forgot-password': 'by e-mail address, rate-limited',
  'POST /api/auth/reset-password': 'carries the reset token',
  'GET /api/public/app-config': 'public client configuration',
  'GET /api/invitations/preview': "what an invitation link invites to, by its token (256 bits, stored hashed); refused once used, cancelled or expired; rate-limited (roles.security.ts)",
  'GET /api/public/logo/:companyId': 'company logo shown to its customers on the recording page',
  'GET /api/public/testimonial/validate/:token': 'customer link token',
  'POST /api/public/testimonial/save': 'customer link token',
  'GET /files/*': 'signed, expiring URL (HMAC) issued to the owning company',
  'GET /api/payment/test-checkout/:sessionId': 'test-mode checkout page (never in production): only for the cookie its company got (payments.security.ts)',
  'POST /api/payment/test-checkout/:sessionId/:action': 'test-mode checkout buttons (never in production): only for the cookie its company got (payments.security.ts)',
  'POST /api/payment/webhook': 'Stripe signature on the raw body',
  'GET /dev/outbox': 'development mail catcher, never in production, loopback clients only (exposure.security.ts)',
  'GET /dev/outbox/messages.json': 'development mail catcher',
  'GET /dev/outbox/:id': 'development mail catcher',
  'GET /dev/outbox/:id/raw': 'development mail catcher',
  'GET /*': 'the web app (SPA fallback), no data',
  'GET /v/:slug': 'share page of a publication: its unguessable slug (128 bits), 404 once taken down (publications.security.ts)',
  'GET /v/:slug/video.mp4': 'video of a live publication, by its slug',
  'GET /v/:slug/poster.jpg': 'poster of a live publication, by its slug',
  'GET /v/:slug/captions.vtt': 'captions of a live publication, by its slug',
  'GET /embed/:slug': 'embeddable player of a live publication, by its slug',
  'GET /api/oembed': 'oEmbed of a share page address (a live publication, by its slug)',
  'GET /wall/:slug': "a company's wall: its slug has ~52 random bits, lists only its live publications it chose (wall.security.ts)",
  'GET /embed/wall/:slug': "embeddable wall of a company, by its slug (wall.security.ts)",
  'GET /v/': 'a page that is not there under the public pages (issue 26): a small 404 page, never the web app',
  'GET /v/*': 'a page that is not there under the public pages (issue 26): a small 404 page, never the web app',
  'GET /embed/': 'a page that is not there under the public pages (issue 26): a small 404 page, never the web app',
  'GET /embed/*': 'a page that is not there under the public pages (issue 26): a small 404 page, never the web app',
  'GET /wall/': 'a page that is not there under the public pages (issue 26): a small 404 page, never the web app',
  'GET /wall/*': 'a page that is not there under the public pages (issue 26): a small 404 page, never the web app',
  'GET /wall.js': 'the static loader script of the wall embed, no data',
  'GET /wall-frame.js': "the static script of the wall's own page, no data",
  'POST /api/publications/views': 'view beacon of the public players: counts only with the signed token of a page served, in order, under a per-address ceiling; foreign Origin refused; rate-limited (views.security.ts)',
  'GET /my-testimonial/:token': "the customer's own page (issue 29): its token of 256 random bits, stored hashed, shows only its testimonial; misses rate-limited (customer-pages.security.ts)",
  'GET /my-testimonial/:token/withdraw': "confirmation page of the customer's withdrawal, by the page token (customer-pages.security.ts)",
  'POST /my-testimonial/:token/withdraw': 'the withdrawal, by the page token, with its HMAC form field, refused from another site (customer-pages.security.ts)',
  'GET /my-testimonial/:token/remove/:responseId': "confirmation page of an answer's removal, by the page token, only its own answers (customer-pages.security.ts)",
  'POST /my-testimonial/:token/remove/:responseId': "an answer's removal, by the page token, with its HMAC form field, refused from another site (customer-pages.security.ts)",
  'GET /my-testimonial/:token/answers/:responseId': "the customer's own answer video, by the page token, only its own answers (customer-pages.security.ts)",
  'GET /approve/:token': "the approval page of one video, by the approval's own token (256 bits, stored hashed) (customer-pages.security.ts)",
  'POST /approve/:token/approve': "the customer's approval, by the approval token, with its HMAC form field, refused from another site (customer-pages.security.ts)",
  'POST /approve/:token/changes': "the customer's request for changes, by the approval token, with its HMAC form field, refused from another site (customer-pages.security.ts)",
  'GET /approve/:token/video': 'the video to approve, by the approval token, none once cancelled or withdrawn (customer-pages.security.ts)',
  'GET /my-testimonial/': 'a page that is not there under the customer pages: a small 404 page, never the web app',
  'GET /my-testimonial/*': 'a page that is not there under the customer pages: a small 404 page, never the web app',
  'GET /approve/': 'a page that is not there under the customer pages: a small 404 page, never the web app',
  'GET /approve/*': 'a page that is not there under the customer pages: a small 404 page, never the web app',
  'GET /api/public/collect/:slug': "an open collection link's first step, by its slug (~49 random bits); closed links refused; rate-limited (collection.security.ts)",
  'POST /api/public/collect/:slug': 'details given on an open collection link: honeypot, limits per address, e-mail and link, daily cap (collection.security.ts)',
  'POST /api/public/collect/confirm-code': "the e-mail code of a collection link's request, by its token (256 bits); 5 tries per code, rate-limited (collection.security.ts)",
  'POST /api/public/collect/resend-code': 'a new e-mail code, by the request token; 3 an hour per token, rate-limited per address (collection.security.ts)',
  'POST /api/public/testimonial/progress': "the recording page's progress beacon (issue 30): records a step only for a pending request's own token, 204 whatever the token, foreign Origin refused, rate-limited (funnel.security.ts)",
  'GET /unsubscribe/:token': "the unsubscribe page (issue 30): the token is the request's id with an HMAC under the server's secret; forged tokens 404 and count as misses (unsubscribe.security.ts)",
  'POST /unsubscribe/:token': 'RFC 8058 one-click and the page form: no cookie, no anti-forgery field possible; idempotent and harmless, it only stops reminders (unsubscribe.security.ts)',
  'GET /unsubscribe/': 'a page that is not there under the unsubscribe pages: a small 404 page, never the web app',
  'GET /unsubscribe/*': 'a page that is not there under the unsubscribe pages: a small 404 page, never the web app',
  'GET /api/v1/openapi.json': 'the OpenAPI document of /api/v1 (issue 32): the same for everyone, made from the contract, no data',
  'GET /developers/api': 'the API reference page (issue 32): made from the OpenAPI document, no data',
  'POST /dev/reminders/run': 'development and tests only: runs the reminders sweep at a given clock; never in production, loopback clients only (unsubscribe.security.ts)',
};

/** Routes without a path parameter whose body names an object (always one of the victim's here). */
const REFERS_TO_VICTIM_OBJECTS = new Set([
  'POST /api/questions/edit',
  'POST /api/questions/delete',
  'POST /api/questions/update-position',
  'POST /api/testimonials/request',
  'POST /api/publications',
  'PUT /api/wall',
  'POST /api/collection-links',
  'POST /api/v1/requests',
  'POST /api/v1/publications',
]);

const SECRET_KEY_OF_SOMEONE_ELSE = 'another-service-secret-that-is-long-enough-32';

type Company = Awaited<ReturnType<typeof signedInCompany>>;

interface Victim {
  company: Company;
  questionId: string;
  questionText: string;
  requestId: string;
  responseId: string;
  jobId: string;
  publicationId: string;
  customerEmail: string;
  webhookId: string;
  deliveryId: string;
}

describe('route table attacks', () => {
  let t: TestApp;
  let victim: Victim;
  let attacker: Company;
  /** The attacker's own API key (issue 32): /api/v1 is called with it, the dashboard with the session. */
  let attackerKey: Record<string, string>;
  const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

  beforeAll(async () => {
    // The attacker's key calls every /api/v1 route several times: its per-key limit (tested in
    // api-keys.security.ts) must not be what refuses it here.
    t = await createTestApp({ env: { API_KEY_RATE_PER_MINUTE: '10000' } });
    const company = await signedInCompany(t);
    const testimonial = await completedTestimonial(t, company);
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, testimonial.id));
    expect((await company.post(`/api/testimonials/pay/${testimonial.id}`)).statusCode).toBe(200);
    const started = await company.post(`/api/testimonials/${testimonial.id}/transcribe-merged-responses`, {});
    expect(started.statusCode, started.body).toBeLessThan(300);
    const job = started.json<{ jobId: string }>();
    const detail = (await company.get(`/api/testimonials/request-safe/${testimonial.id}?company_id=${company.companyId}`)).json<{
      testimonial: { customer_email: string };
    }>();
    const questions = (await company.get(`/api/questions/list?company_id=${company.companyId}`)).json<{ id: string; text: string }[]>();
    // A live publication of the answer (no worker here: it plays from its upload).
    await t.ctx.db.update(testimonialResponses).set({ videoKey: response!.originalKey }).where(eq(testimonialResponses.id, response!.id));
    const published = await company.post('/api/publications', { testimonialId: testimonial.id, responseId: response!.id });
    expect(published.statusCode, published.body).toBe(201);
    // A webhook endpoint with one delivery (a test event); written directly: no address resolves here.
    const [endpoint] = await t.ctx.db
      .insert(webhookEndpoints)
      .values({ companyId: company.companyId, url: 'https://hooks.victim.test/in', events: ['render.ready'], secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}` })
      .returning();
    const testEvent = await company.post(`/api/webhooks/${endpoint!.id}/test`);
    expect(testEvent.statusCode, testEvent.body).toBe(202);
    victim = {
      webhookId: endpoint!.id,
      deliveryId: testEvent.json<{ id: string }>().id,
      company,
      questionId: testimonial.questionId,
      questionText: questions.find((q) => q.id === testimonial.questionId)!.text,
      requestId: testimonial.id,
      responseId: response!.id,
      jobId: job.jobId,
      publicationId: published.json<{ id: string }>().id,
      customerEmail: detail.testimonial.customer_email,
    };
    attacker = await signedInCompany(t);
    const created = await attacker.post('/api/api-keys', { name: 'Attacker', scope: 'read_write' });
    expect(created.statusCode, created.body).toBe(201);
    attackerKey = { authorization: `Bearer ${created.json<{ key: string }>().key}` };
  });
  afterAll(async () => {
    await t?.close();
  });

  const authenticatedRoutes = () => t.app.routeTable.filter((r) => !(key(r) in PUBLIC_ROUTES) && r.method !== 'OPTIONS');

  it('knows every route: the table is not empty and every public entry still exists', () => {
    const all = new Set(t.app.routeTable.map(key));
    expect(authenticatedRoutes().length).toBeGreaterThan(25);
    const optional = new Set(['GET /api/ready', 'GET /metrics', 'GET /*']);
    for (const route of Object.keys(PUBLIC_ROUTES)) if (!optional.has(route)) expect(all.has(route), route).toBe(true);
  });

  /** A concrete URL for a route: params become the victim's ids, a wildcard a plausible file path. */
  function urlFor(route: { url: string }, id: string): string {
    return route.url
      .replace(':jobId', victim.jobId)
      .replace(':deliveryId', victim.deliveryId)
      .replace(/:[A-Za-z]+/g, id)
      .replace('*', `companies/${victim.company.companyId}/x.mp4`);
  }

  async function call(
    route: { method: string; url: string },
    headers: Record<string, string>,
    id = victim.requestId,
    body?: unknown,
    companyId = victim.company.companyId,
  ) {
    const url = urlFor(route, id);
    const withQuery = `${url}${url.includes('?') ? '&' : '?'}company_id=${companyId}`;
    return t.app.inject({
      method: route.method as 'GET',
      url: withQuery,
      headers: { ...headers, ...(route.method === 'GET' ? {} : { 'content-type': 'application/json' }) },
      ...(route.method === 'GET' ? {} : { payload: JSON.stringify(body ?? {}) }),
    });
  }

  it('refuses every authenticated route without a token, with an expired one, a foreign one or garbage', async () => {
    const now = Date.now();
    const claims = { userId: victim.company.userId, companyId: victim.company.companyId, sessionId: victim.company.sessionId };
    const expired = await signAccessToken(t.ctx.secrets.jwt, claims, now - 16 * 60 * 1000);
    const foreign = await signAccessToken(SECRET_KEY_OF_SOMEONE_ELSE, claims, now);
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(
      JSON.stringify({ sub: claims.userId, cid: claims.companyId, sid: claims.sessionId, typ: 'access', aud: 'vouchreel-api', exp: Math.floor(now / 1000) + 600 }),
    ).toString('base64url')}.`;
    const wrongAlgorithm = await new SignJWT({ cid: claims.companyId, sid: claims.sessionId, typ: 'access' })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject(claims.userId)
      .setAudience('vouchreel-api')
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(t.ctx.secrets.jwt));
    const attempts: Record<string, Record<string, string>> = {
      'no token': {},
      'expired token': { authorization: `Bearer ${expired}` },
      'token signed with another key': { authorization: `Bearer ${foreign}` },
      'unsigned token (alg none)': { authorization: `Bearer ${unsigned}` },
      'token with another algorithm': { authorization: `Bearer ${wrongAlgorithm}` },
      'not a JWT': { authorization: 'Bearer not-a-token' },
      'another scheme': { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
    };
    for (const route of authenticatedRoutes()) {
      for (const [attempt, headers] of Object.entries(attempts)) {
        const res = await call(route, headers);
        expect(res.statusCode, `${key(route)} with ${attempt}: ${res.body}`).toBe(401);
        expect(res.json(), `${key(route)} with ${attempt}`).toMatchObject({ code: 'unauthorized' });
      }
    }
  });

  /** Valid bodies, so that a refusal comes from the ownership check and not from validation. */
  function bodyFor(route: { method: string; url: string }, id: string, c: string): unknown {
    const cue = [{ start: 0, end: 1.5, text: 'Hello there' }];
    const bodies: Record<string, unknown> = {
      'POST /api/questions/add': { company_id: c, text: 'Injected question?', order_position: 2 },
      'POST /api/questions/edit': { id, company_id: c, text: 'Rewritten by someone else' },
      'POST /api/questions/delete': { id, company_id: c },
      'POST /api/questions/update-position': { id, company_id: c, old_position: 1, new_position: 1 },
      'POST /api/testimonials/request': {
        customer_email: 'victim.customer@client.test',
        customer_name: 'Someone',
        question_ids: [victim.questionId],
        language: 'english',
        company_id: c,
      },
      'POST /api/testimonials/request/:id/remind': { company_id: c },
      'POST /api/testimonials/pay/:id': {},
      'POST /api/testimonials/response/:id/generate-modified/intro': { language: 'en' },
      'POST /api/testimonials/response/:id/regenerate': { language: 'en' },
      'POST /api/testimonials/:id/merge': { language: 'en' },
      'POST /api/testimonials/:id/regenerate-merged': { language: 'en' },
      'POST /api/testimonials/response/:id/generate-modified/subtitles': { transcription: cue, language: 'en' },
      'PUT /api/testimonials/response/:id/transcription': { transcription: cue },
      'PUT /api/testimonials/response/:id/trim': { start: 0.5, end: 1.6 },
      'POST /api/testimonials/:id/generate-merged-with-all-subtitles': {
        transcriptions: [{ responseId: victim.responseId, transcription: cue }],
        language: 'en',
      },
      'POST /api/testimonials/response/:id/export-v2': {
        platform: 'shorts',
        videoType: 'original',
        cropArea: { x: 0.25, y: 0, width: 0.3, height: 1 },
        language: 'en',
      },
      'POST /api/testimonials/:id/export-v2': {
        platform: 'shorts',
        videoType: 'original',
        cropArea: { x: 0.25, y: 0, width: 0.3, height: 1 },
        language: 'en',
      },
      'POST /api/publications': { testimonialId: victim.requestId, responseId: victim.responseId },
      'PUT /api/publications/:id/quote': { quote: null },
      'PUT /api/publications/:id/poster': { seconds: 0.5 },
      'PUT /api/wall': { items: [id] },
      'POST /api/testimonials/response/:id/transcribe': {},
      'POST /api/testimonials/:id/transcribe-merged-responses': {},
      'POST /api/testimonials/:id/approvals': { jobId: victim.jobId },
      'PUT /api/testimonials/:id/approval-required': { required: true },
      'PUT /api/user/approval-setting': { approval_required: false },
      'POST /api/collection-links': { name: 'Stolen questions', question_ids: [victim.questionId], language: 'english', background_color: '#000000' },
      'PUT /api/members/:userId/role': { role: 'viewer' },
      'POST /api/members/invitations': { email: 'attacker.friend@attacker.test', role: 'owner' },
      'POST /api/companies/switch': { companyId: c },
      'POST /api/v1/requests': { customer_email: 'victim.customer@client.test', customer_name: 'Someone', question_ids: [victim.questionId], language: 'english' },
      'POST /api/v1/publications': { testimonial_id: victim.requestId, response_id: victim.responseId },
      'POST /api/webhooks': { url: 'https://hooks.attacker.test/in', events: ['render.ready'] },
      'PUT /api/webhooks/:id': { enabled: false, events: ['render.failed'] },
      'PUT /api/collection-links/:id': { name: 'Renamed', question_ids: [victim.questionId], language: 'english', background_color: '#000000' },
    };
    return bodies[key(route)] ?? {};
  }

  /** What the victim can see of its own company: must be the same after every attack. */
  async function victimState(): Promise<string> {
    const c = victim.company.companyId;
    const parts = await Promise.all([
      victim.company.get(`/api/questions/list?company_id=${c}`),
      victim.company.get(`/api/testimonials/requests?company_id=${c}`),
      victim.company.get(`/api/testimonials/stats?company_id=${c}`),
      victim.company.get('/api/payment/list-transaction'),
      victim.company.get('/api/auth/settings'),
      victim.company.get('/api/user/profile'),
      victim.company.get('/api/publications'),
      victim.company.get('/api/wall'),
      victim.company.get('/api/webhooks'),
      victim.company.get(`/api/webhooks/${victim.webhookId}/deliveries`),
      // The activity log (decision 220): no attack adds to it, and none reads it (its events name the victim's testimonial).
      victim.company.get('/api/activity?limit=100'),
    ]);
    return parts.map((p) => p.body).join('\n');
  }

  it("never gives one company another company's data, nor lets it change or spend anything", async () => {
    const before = await victimState();
    const victimMarkers = [victim.questionText, victim.requestId, victim.responseId, victim.customerEmail, victim.questionId];
    const ids = [victim.requestId, victim.responseId, victim.questionId, victim.jobId, victim.publicationId, victim.company.userId, victim.webhookId, victim.deliveryId];
    for (const route of authenticatedRoutes()) {
      const hasParam = /[:*]/.test(route.url);
      // The attacker names the victim's company, or honestly its own while naming the victim's objects.
      for (const [id, companyId] of ids.flatMap((i) => [victim.company.companyId, attacker.companyId].map((c) => [i, c] as const))) {
        const headers = route.url.startsWith('/api/v1/') ? attackerKey : attacker.headers;
        const res = await call(route, headers, id, bodyFor(route, id, companyId), companyId);
        const label = `${key(route)} with the victim's id ${id}: ${res.statusCode} ${res.body.slice(0, 300)}`;
        if (key(route) === 'GET /api/testimonials/request/:id' && res.statusCode === 200) {
          // Spec §8: the detail answers { testimonial: null } for a testimonial it cannot show.
          expect(res.json(), label).toEqual({ testimonial: null, error_credit: false });
        } else if (hasParam) {
          // A route about one object of another company: refused, as 403 or 404, and not for bad input.
          expect([403, 404], label).toContain(res.statusCode);
        } else if (REFERS_TO_VICTIM_OBJECTS.has(key(route))) {
          // Names the victim's objects in its body (a question id): refused.
          expect([400, 403, 404], label).toContain(res.statusCode);
        } else {
          expect(res.statusCode, label).toBeLessThan(500);
        }
        for (const marker of victimMarkers) expect(res.body.includes(marker), `${label} leaks ${marker}`).toBe(false);
      }
    }
    expect(await victimState()).toBe(before);
  });

  it("answers another company's activity cursor with the caller's own events only", async () => {
    const victimLog = await victim.company.get('/api/activity?limit=1');
    expect(victimLog.statusCode, victimLog.body).toBe(200);
    const { events, nextCursor } = victimLog.json<{ events: unknown[]; nextCursor: string | null }>();
    expect(events).toHaveLength(1);
    expect(nextCursor).toBeTruthy();
    const replay = await attacker.get(`/api/activity?cursor=${encodeURIComponent(nextCursor!)}`);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.body.includes(victim.requestId)).toBe(false);
    const named = await attacker.get(`/api/activity?company_id=${victim.company.companyId}`);
    expect(named.statusCode).toBe(403);
  });
});
