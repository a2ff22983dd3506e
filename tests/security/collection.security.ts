/**
 * Issue 30, open collection links under attack: the limits per client address, per e-mail address and
 * per link; the honeypot; a disabled, full or expired link refused; nothing of an upload written for a
 * closed link or an unconfirmed e-mail code (the refusal comes before the file is read: a file over the
 * size limit is refused for the link, not for its size); the e-mail code's tries; and another company
 * cannot read, change, delete or get the QR code of a link.
 */
import { readdir } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionLinks, pendingObjects, testimonialRequests, testimonialResponses } from '../../src/server/db/schema.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { multipart } from '../../src/server/test/clips.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';

type Company = Awaited<ReturnType<typeof signedInCompany>>;

describe('open collection links under attack', () => {
  let t: TestApp;
  let owner: Company;
  let attacker: Company;
  let questionId: string;
  let n = 0;
  const ip = () => `10.31.${Math.floor(++n / 250)}.${n % 250}`;

  beforeAll(async () => {
    t = await createTestApp({ env: { UPLOAD_MAX_BYTES: String(64 * 1024) } });
    owner = await signedInCompany(t, { companyName: 'Owner Co' });
    attacker = await signedInCompany(t, { companyName: 'Attacker Co' });
    questionId = (await owner.post('/api/questions/add', { company_id: owner.companyId, text: 'What did you like?', order_position: 1 })).json<{ id: string }>().id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const body = (over: Record<string, unknown> = {}) => ({ name: 'Counter', question_ids: [questionId], language: 'english', background_color: '#000000', ...over });
  async function newLink(over: Record<string, unknown> = {}) {
    const res = await owner.post('/api/collection-links', body(over));
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string; slug: string }>();
  }
  const start = (slug: string, payload: Record<string, unknown>, remoteAddress = ip()) =>
    t.app.inject({ method: 'POST', url: `/api/public/collect/${slug}`, remoteAddress, payload: { name: 'Sam', email: `s${n}@client.test`, ...payload } });

  /** An upload whose one file is larger than the limit: only a refusal before reading it can answer other than 413. */
  async function oversizedSave(token: string) {
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.token, token));
    const form = multipart([
      { name: 'token', value: token },
      { name: 'testimonialId', value: row!.id },
      { name: 'name', value: 'Sam' },
      { name: 'consentVersion', value: 'image-rights-v1' },
      { name: 'questionIds[0]', value: questionId },
      { name: 'bgColors[0]', value: '#000000' },
      { name: 'videos', filename: 'video0.webm', content: Buffer.alloc(256 * 1024, 7), type: 'video/webm' },
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/public/testimonial/save', remoteAddress: ip(), ...form });
    expect(await t.ctx.db.$count(testimonialResponses, eq(testimonialResponses.requestId, row!.id))).toBe(0);
    expect(await t.ctx.db.$count(pendingObjects)).toBe(0);
    const leftovers = (await readdir(t.ctx.tmpDir).catch(() => [] as string[])).filter((f) => f.startsWith('upload-'));
    expect(leftovers).toEqual([]);
    return res;
  }

  it('another company cannot list, read, change, delete or get the QR code of a link, nor use its questions', async () => {
    const link = await newLink();
    expect((await attacker.get('/api/collection-links')).json()).toEqual([]);
    expect((await attacker.put(`/api/collection-links/${link.id}`, body())).statusCode).toBe(404);
    expect((await attacker.put(`/api/collection-links/${link.id}`, { ...body(), question_ids: [questionId] })).statusCode).toBe(404);
    for (const format of ['svg', 'png']) expect((await attacker.get(`/api/collection-links/${link.id}/qr?format=${format}`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/collection-links/${link.id}`, headers: attacker.headers })).statusCode).toBe(404);
    expect((await attacker.post('/api/collection-links', body())).statusCode).toBe(403);
    const [row] = await t.ctx.db.select().from(collectionLinks).where(eq(collectionLinks.id, link.id));
    expect(row).toMatchObject({ name: 'Counter', companyId: owner.companyId });
    // Without a session, nothing.
    expect((await t.app.inject({ method: 'GET', url: `/api/collection-links/${link.id}/qr?format=png` })).statusCode).toBe(401);
  });

  it('refuses the honeypot without creating anything', async () => {
    const link = await newLink();
    const res = await start(link.slug, { website: 'https://spam.example' });
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe('collection_details_refused');
    expect(await t.ctx.db.$count(testimonialRequests, eq(testimonialRequests.collectionLinkId, link.id))).toBe(0);
  });

  it('limits details per client address, per e-mail address and per link', async () => {
    const perAddress = await newLink();
    const fromOne: number[] = [];
    for (let i = 0; i < 11; i++) fromOne.push((await start(perAddress.slug, { email: `a${i}@client.test` }, '10.32.0.1')).statusCode);
    expect(fromOne.filter((s) => s === 201)).toHaveLength(10);
    expect(fromOne[10]).toBe(429);

    const perEmail: number[] = [];
    for (let i = 0; i < 6; i++) perEmail.push((await start(perAddress.slug, { email: 'same@client.test' })).statusCode);
    expect(perEmail.slice(0, 5).every((s) => s === 201)).toBe(true);
    expect(perEmail[5]).toBe(429);

    const perLink = await newLink({ daily_cap: 1000 });
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) statuses.push((await start(perLink.slug, { email: `l${i}@client.test` })).statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(120);
    expect(statuses[120]).toBe(429);
  });

  it('refuses a disabled, full or expired link, and the upload for it before reading a byte', async () => {
    const link = await newLink({ max_submissions: 1 });
    const token = (await start(link.slug, {})).json<{ token: string }>().token;

    await owner.put(`/api/collection-links/${link.id}`, body({ enabled: false, max_submissions: 1 }));
    expect((await t.app.inject({ method: 'GET', url: `/api/public/collect/${link.slug}`, remoteAddress: ip() })).json().reason).toBe('collection_link_disabled');
    expect((await start(link.slug, {})).json().reason).toBe('collection_link_disabled');
    const disabled = await oversizedSave(token);
    expect(disabled.statusCode).toBe(410);
    expect(disabled.json().reason).toBe('collection_link_disabled');

    await owner.put(`/api/collection-links/${link.id}`, body({ max_submissions: 1 }));
    await t.ctx.db.update(collectionLinks).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(collectionLinks.id, link.id));
    expect((await start(link.slug, {})).json().reason).toBe('collection_link_expired');
    expect((await oversizedSave(token)).json().reason).toBe('collection_link_expired');

    // Full: one testimonial already came through it.
    await t.ctx.db.update(collectionLinks).set({ expiresAt: null }).where(eq(collectionLinks.id, link.id));
    const other = (await start(link.slug, {})).json<{ token: string }>().token;
    await t.ctx.db.update(testimonialRequests).set({ status: 'completed', submittedAt: new Date() }).where(eq(testimonialRequests.token, other));
    expect((await start(link.slug, {})).json().reason).toBe('collection_link_full');
    expect((await oversizedSave(token)).json().reason).toBe('collection_link_full');
  });

  it('refuses the upload until the e-mail code is confirmed, before reading a byte; wrong codes are limited', async () => {
    const link = await newLink({ email_code_required: true });
    const started = (await start(link.slug, {})).json<{ token: string; code_required: boolean }>();
    expect(started.code_required).toBe(true);
    const refused = await oversizedSave(started.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().reason).toBe('email_code_required');

    const confirm = (code: string) => t.app.inject({ method: 'POST', url: '/api/public/collect/confirm-code', remoteAddress: ip(), payload: { token: started.token, code } });
    const answers: string[] = [];
    // Guessing: five tries, then the code is used up whatever is typed (one in 10⁶ per try, at most 5).
    for (let i = 0; i < 7; i++) answers.push((await confirm(String(100000 + i))).json<{ reason: string }>().reason);
    expect(answers.slice(5)).toEqual(['email_code_expired', 'email_code_expired']);
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.token, started.token));
    expect(row!.emailConfirmedAt).toBeNull();
    expect(row!.emailCodeHash).not.toContain('1000');
    expect((await oversizedSave(started.token)).json().reason).toBe('email_code_required');
    // A token that is not a collection request's has no code to confirm.
    expect((await t.app.inject({ method: 'POST', url: '/api/public/collect/confirm-code', remoteAddress: ip(), payload: { token: 'x'.repeat(43), code: '123456' } })).statusCode).toBe(404);
  });
});
