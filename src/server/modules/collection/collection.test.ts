import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionLinks, companies, pendingObjects, requestEvents, requestQuestions, testimonialRequests } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { makeClip, multipart } from '../../test/clips.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { decodeQrPng } from '../../test/qr.js';
import { startSmtpCatcher } from '../../test/smtp-catcher.js';

describe('collection links', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  let clip: Buffer;
  let ipN = 0;
  const ip = () => `10.30.${Math.floor(++ipN / 250)}.${ipN % 250}`;

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    t = await createTestApp({ work: true, env: { SMTP_URL: smtp.url } });
    clip = await readFile(await makeClip({ format: 'webm', seconds: 2 }));
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  async function companyWithQuestions(companyName = 'Fleurs Roy') {
    const me = await signedInCompany(t, { companyName });
    const q1 = (await me.post('/api/questions/add', { company_id: me.companyId, text_en: 'What did you like?', text_fr: 'Qu’avez-vous aimé ?', order_position: 1 })).json();
    const q2 = (await me.post('/api/questions/add', { company_id: me.companyId, text_en: 'Would you recommend us?', text_fr: 'Nous recommanderiez-vous ?', order_position: 2 })).json();
    return { me, ids: [q1.id as string, q2.id as string] };
  }

  const linkBody = (ids: string[], over: Record<string, unknown> = {}) => ({
    name: 'Counter QR',
    question_ids: ids,
    language: 'french',
    gift: 'Un bouquet offert',
    background_color: '#1E3A8A',
    expires_at: null,
    max_submissions: null,
    daily_cap: 50,
    enabled: true,
    email_code_required: false,
    ...over,
  });

  const open = (slug: string) => t.app.inject({ method: 'GET', url: `/api/public/collect/${slug}`, remoteAddress: ip(), headers: { 'user-agent': 'Phone/1' } });
  const start = (slug: string, payload: object, remoteAddress = ip()) =>
    t.app.inject({ method: 'POST', url: `/api/public/collect/${slug}`, remoteAddress, payload });
  const details = (email = `c${ipN}@client.test`) => ({ name: 'Camille Roy', position: 'Fleuriste', email, website: '' });

  const save = async (token: string, questionIds: string[]) => {
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.token, token));
    const form = multipart([
      ...questionIds.map((id, i) => ({ name: `questionIds[${i}]`, value: id })),
      ...questionIds.map((_, i) => ({ name: `bgColors[${i}]`, value: '#1e3a8a' })),
      { name: 'name', value: 'Camille Roy' },
      { name: 'testimonialId', value: row!.id },
      { name: 'token', value: token },
      { name: 'consentVersion', value: 'image-rights-v1' },
      ...questionIds.map((_, i) => ({ name: 'videos', filename: `video${i}.webm`, content: clip, type: 'video/webm' })),
    ]);
    return t.app.inject({ method: 'POST', url: '/api/public/testimonial/save', remoteAddress: ip(), ...form });
  };

  it('creates, lists, changes and deletes a link; another company can neither see, change, delete nor get its QR code', async () => {
    const { me, ids } = await companyWithQuestions();
    const created = await me.post('/api/collection-links', linkBody([ids[1]!, ids[0]!]));
    expect(created.statusCode, created.body).toBe(201);
    const link = created.json();
    expect(link).toMatchObject({ name: 'Counter QR', question_ids: [ids[1], ids[0]], language: 'french', background_color: '#1e3a8a', state: 'open', submissions: 0, daily_cap: 50 });
    expect(link.slug).toMatch(/^[a-z2-9]{10}$/);
    expect(link.url).toBe(`http://app.test/c/${link.slug}`);

    const invalid = await me.post('/api/collection-links', linkBody([], { name: '' }));
    expect(invalid.statusCode).toBe(400);
    const past = await me.post('/api/collection-links', linkBody(ids, { expires_at: '2020-01-01T00:00:00.000Z' }));
    expect(past.statusCode).toBe(400);
    expect(past.json().field).toBe('expires_at');

    const changed = await me.put(`/api/collection-links/${link.id}`, linkBody([ids[0]!], { name: 'Salon 2026', enabled: false }));
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Salon 2026', question_ids: [ids[0]], state: 'disabled' });

    const other = await companyWithQuestions('Other Co');
    expect((await other.me.get('/api/collection-links')).json()).toEqual([]);
    expect((await other.me.put(`/api/collection-links/${link.id}`, linkBody(other.ids))).statusCode).toBe(404);
    expect((await other.me.get(`/api/collection-links/${link.id}/qr?format=png`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/collection-links/${link.id}`, headers: other.me.headers })).statusCode).toBe(404);
    // Someone else's questions cannot be put on a link.
    expect((await me.put(`/api/collection-links/${link.id}`, linkBody(other.ids))).statusCode).toBe(403);

    expect((await me.get('/api/collection-links')).json()).toHaveLength(1);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/collection-links/${link.id}`, headers: me.headers })).statusCode).toBe(204);
    expect((await me.get('/api/collection-links')).json()).toEqual([]);
  });

  it('draws the QR code as SVG and PNG; the PNG reads back to the address, with and without the logo in the centre', async () => {
    const { me, ids } = await companyWithQuestions('QR Co');
    const link = (await me.post('/api/collection-links', linkBody(ids))).json();
    const svg = await me.get(`/api/collection-links/${link.id}/qr?format=svg`);
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toContain('image/svg+xml');
    expect(svg.headers['content-disposition']).toBe(`attachment; filename="qr-${link.slug}.svg"`);
    expect(svg.body).toMatch(/^<svg[^>]*viewBox/);
    expect(svg.body).not.toContain('<image');
    const png = await me.get(`/api/collection-links/${link.id}/qr?format=png`);
    expect(png.headers['content-type']).toBe('image/png');
    expect(decodeQrPng(png.rawPayload)).toBe(link.url);
    expect((await me.get(`/api/collection-links/${link.id}/qr?format=gif`)).statusCode).toBe(400);

    // A logo (a normalised copy, as the worker writes it): magenta, half transparent at its edges.
    const logo = new PNG({ width: 400, height: 200 });
    for (let y = 0; y < 200; y++) {
      for (let x = 0; x < 400; x++) {
        const i = (y * 400 + x) * 4;
        logo.data.set([200, 20, 160, x < 20 || x > 380 ? 100 : 255], i);
      }
    }
    const key = `companies/${me.companyId}/logo/test-1024.png`;
    await t.ctx.storage.put(key, Readable.from(PNG.sync.write(logo)), 'image/png');
    await t.ctx.db.update(companies).set({ logoKey: key }).where(eq(companies.id, me.companyId));
    const withLogo = await me.get(`/api/collection-links/${link.id}/qr?format=png`);
    const image = PNG.sync.read(withLogo.rawPayload);
    const centre = (Math.floor(image.height / 2) * image.width + Math.floor(image.width / 2)) * 4;
    expect([...image.data.subarray(centre, centre + 3)]).toEqual([200, 20, 160]);
    expect(decodeQrPng(withLogo.rawPayload)).toBe(link.url);
    const svgLogo = await me.get(`/api/collection-links/${link.id}/qr?format=svg`);
    expect(svgLogo.body).toContain('<image');
    expect(svgLogo.body).toContain('href="data:image/png;base64,');
  });

  it('opens a link in its language, records the visitor, and starts a request like an invitation (frozen French questions, company time zone)', async () => {
    const { me, ids } = await companyWithQuestions('Salon Camille');
    const link = (await me.post('/api/collection-links', linkBody(ids))).json();
    const first = await open(link.slug);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.json()).toMatchObject({
      name: 'Counter QR',
      language: 'french',
      gift: 'Un bouquet offert',
      background_color: '#1e3a8a',
      email_code_required: false,
      company: { name: 'Salon Camille', logo_url: null },
      questions: [
        { id: ids[0], text: 'Qu’avez-vous aimé ?' },
        { id: ids[1], text: 'Nous recommanderiez-vous ?' },
      ],
    });
    expect((await open('nope-nope-nope')).json().reason).toBe('collection_link_unknown');

    const started = await start(link.slug, details('Camille@Client.test'));
    expect(started.statusCode, started.body).toBe(201);
    const { token, code_required } = started.json();
    expect(code_required).toBe(false);
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.token, token));
    expect(row).toMatchObject({
      delivery: 'collection',
      collectionLinkId: link.id,
      customerEmail: 'camille@client.test',
      customerName: 'Camille Roy',
      customerPosition: 'Fleuriste',
      language: 'french',
      gift: 'Un bouquet offert',
      backgroundColor: '#1e3a8a',
      timeZone: 'Europe/Paris',
      status: 'pending',
    });
    const frozen = await t.ctx.db.select().from(requestQuestions).where(eq(requestQuestions.requestId, row!.id));
    expect(frozen.map((q) => q.questionText).sort()).toEqual(['Nous recommanderiez-vous ?', 'Qu’avez-vous aimé ?']);
    const events = await t.ctx.db.select().from(requestEvents).where(eq(requestEvents.linkId, link.id));
    expect(events.filter((e) => e.kind === 'link_opened')).toHaveLength(1);
    expect(events.find((e) => e.kind === 'sent')).toMatchObject({ requestId: row!.id, language: 'french', detail: { via: 'collection' } });

    // The recording page reads the token as any customer's link.
    const validated = await t.app.inject({ method: 'GET', url: `/api/public/testimonial/validate/${token}` });
    expect(validated.json().testimonial).toMatchObject({ customer_name: 'Camille Roy', language: 'french' });
    const saved = await save(token, ids);
    expect(saved.statusCode, saved.body).toBe(200);
    const list = (await me.get('/api/collection-links')).json();
    expect(list[0]).toMatchObject({ submissions: 1, submissions_today: 1, state: 'open' });
    const requests = (await me.get(`/api/testimonials/requests?company_id=${me.companyId}`)).json();
    expect(requests[0]).toMatchObject({ delivery: 'collection', collection_link_id: link.id, status: 'completed' });
  });

  it('refuses the honeypot, a disabled, expired or full link and the daily cap, in the link’s language', async () => {
    const { me, ids } = await companyWithQuestions('Cap Co');
    const link = (await me.post('/api/collection-links', linkBody(ids, { max_submissions: 1, daily_cap: 1 }))).json();
    const bot = await start(link.slug, { ...details(), website: 'http://spam.test' });
    expect(bot.statusCode).toBe(400);
    expect(bot.json()).toMatchObject({ reason: 'collection_details_refused', params: { language: 'fr' } });
    expect(await t.ctx.db.$count(testimonialRequests, eq(testimonialRequests.collectionLinkId, link.id))).toBe(0);

    // Two customers start; the first one's answers fill the link, the second is refused before any byte is written.
    const a = (await start(link.slug, details())).json().token as string;
    const b = (await start(link.slug, details())).json().token as string;
    expect((await save(a, ids)).statusCode).toBe(200);
    const full = await save(b, ids);
    expect(full.statusCode).toBe(410);
    expect(full.json()).toMatchObject({ reason: 'collection_link_full', params: { company: 'Cap Co', language: 'fr' } });
    expect(await t.ctx.db.$count(pendingObjects)).toBe(0);
    expect((await open(link.slug)).json().reason).toBe('collection_link_full');
    expect((await me.get('/api/collection-links')).json()[0].state).toBe('full');

    // Room again, but today's cap of 1 is reached.
    await me.put(`/api/collection-links/${link.id}`, linkBody(ids, { max_submissions: 5, daily_cap: 1 }));
    const capped = await open(link.slug);
    expect(capped.statusCode).toBe(429);
    expect(capped.json().reason).toBe('collection_link_daily_cap');

    await me.put(`/api/collection-links/${link.id}`, linkBody(ids, { max_submissions: 5, daily_cap: 5, enabled: false }));
    const disabled = await open(link.slug);
    expect(disabled.statusCode).toBe(410);
    expect(disabled.json()).toMatchObject({ reason: 'collection_link_disabled', params: { language: 'fr' } });
    expect((await start(link.slug, details())).json().reason).toBe('collection_link_disabled');
    expect((await save(b, ids)).json().reason).toBe('collection_link_disabled');

    await me.put(`/api/collection-links/${link.id}`, linkBody(ids, { max_submissions: 5, daily_cap: 5, enabled: true }));
    await t.ctx.db.update(collectionLinks).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(collectionLinks.id, link.id));
    expect((await open(link.slug)).json().reason).toBe('collection_link_expired');
    expect((await save(b, ids)).json().reason).toBe('collection_link_expired');
    expect(await t.ctx.db.$count(pendingObjects)).toBe(0);
  });

  it('asks for the e-mail code: mailed in the link’s language with the unsubscribe headers; the upload waits for it; wrong tries are limited', async () => {
    const { me, ids } = await companyWithQuestions('Code Co');
    const link = (await me.post('/api/collection-links', linkBody(ids, { email_code_required: true }))).json();
    expect((await open(link.slug)).json().email_code_required).toBe(true);
    const started = (await start(link.slug, details('code@client.test'))).json();
    expect(started.code_required).toBe(true);
    const mail = await smtp.waitFor('code@client.test', /Votre code pour Code Co/);
    const code = /(\d{6})/.exec(mail.email.subject ?? '')![1]!;
    expect(mail.email.text).toContain(code.split('').join(' '));
    expect(mail.email.text).toContain('/unsubscribe/');
    const headers = (mail.email.headers ?? []).map((h) => h.key.toLowerCase());
    expect(headers).toContain('list-unsubscribe');
    expect(headers).toContain('list-unsubscribe-post');

    const refused = await save(started.token, ids);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ reason: 'email_code_required', params: { language: 'fr' } });
    expect(await t.ctx.db.$count(pendingObjects)).toBe(0);

    const confirm = (value: string) => t.app.inject({ method: 'POST', url: '/api/public/collect/confirm-code', remoteAddress: ip(), payload: { token: started.token, code: value } });
    const wrong = code === '000000' ? '111111' : '000000';
    const first = await confirm(wrong);
    expect(first.statusCode).toBe(400);
    expect(first.json()).toMatchObject({ reason: 'email_code_wrong', params: { left: 4 } });
    expect((await confirm('12ab')).statusCode).toBe(400);
    expect((await confirm(code)).json()).toEqual({ success: true });
    expect((await confirm(code)).json()).toEqual({ success: true });
    expect((await save(started.token, ids)).statusCode).toBe(200);

    // Five wrong tries use a code up; a new one can be asked for, at most three times an hour.
    const other = (await start(link.slug, details('other@client.test'))).json();
    const otherMail = await smtp.waitFor('other@client.test', /Votre code/);
    const otherCode = /(\d{6})/.exec(otherMail.email.subject ?? '')![1]!;
    const bad = otherCode === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) await t.app.inject({ method: 'POST', url: '/api/public/collect/confirm-code', remoteAddress: ip(), payload: { token: other.token, code: bad } });
    const usedUp = await t.app.inject({ method: 'POST', url: '/api/public/collect/confirm-code', remoteAddress: ip(), payload: { token: other.token, code: otherCode } });
    expect(usedUp.json().reason).toBe('email_code_expired');
    const resend = () => t.app.inject({ method: 'POST', url: '/api/public/collect/resend-code', remoteAddress: ip(), payload: { token: other.token } });
    expect((await resend()).statusCode).toBe(200);
    expect((await resend()).statusCode).toBe(200);
    expect((await resend()).statusCode).toBe(200);
    expect((await resend()).statusCode).toBe(429);
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(and(eq(testimonialRequests.token, other.token)));
    expect(row!.emailCodeAttempts).toBe(0);
    expect(row!.emailConfirmedAt).toBeNull();
  });

  it('limits details per client address', async () => {
    const { me, ids } = await companyWithQuestions('Limit Co');
    const link = (await me.post('/api/collection-links', linkBody(ids))).json();
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await start(link.slug, details(`l${i}@client.test`), '10.99.0.1')).statusCode);
    expect(codes.slice(0, 10).every((c) => c === 201)).toBe(true);
    expect(codes[10]).toBe(429);
  });
});
