import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_REASON_MESSAGES, ERROR_REASONS, errorReasonMessage, isErrorReason } from '../../contract/error-reasons.js';
import { QUESTION_IN_USE_MARKER } from '../../contract/api/questions.schema.js';
import { ZApiError } from '../../contract/errors.js';
import { testimonialRequests } from '../db/schema.js';
import { signedInCompany } from '../test/accounts.js';
import { makeClip, multipart } from '../test/clips.js';
import { createTestApp, type TestApp } from '../test/harness.js';

/**
 * Every refusal the customer's page can meet carries a stable reason key with its parameters (the
 * page translates it into the request's language), through the real app: the two public calls, the
 * multipart reader, the rate limiter and the upload budget; and a company's wrong-state refusal
 * answers the `conflict` code with its reason.
 */

describe('the reason catalogue', () => {
  it('fills the parameters into the English message', () => {
    expect(errorReasonMessage('link_expired', { company: 'Acme', language: 'fr' })).toBe('This link has expired. Please ask Acme for a new one.');
    expect(errorReasonMessage('answer_too_long', { answer: 2, seconds: 20 })).toBe(
      'Answer 2 lasts more than 20 seconds; answers are limited to 20 seconds. Please record it again.',
    );
    expect(isErrorReason('link_invalid')).toBe(true);
    expect(isErrorReason('toString')).toBe(false);
    expect(isErrorReason(undefined)).toBe(false);
    expect(ERROR_REASONS).toHaveLength(Object.keys(ERROR_REASON_MESSAGES).length);
  });

  it("keeps the text older clients look for in the question-in-use refusal", () => {
    expect(ERROR_REASON_MESSAGES.question_in_use).toContain(QUESTION_IN_USE_MARKER);
  });
});

describe('refusals carry their reason', () => {
  let t: TestApp;
  let ip = 0;
  let webm: Buffer;
  let silent: Buffer;

  beforeAll(async () => {
    t = await createTestApp({ env: { UPLOAD_MAX_BYTES: String(1024 * 1024) } });
    webm = await readFile(await makeClip({ format: 'webm', seconds: 2 }));
    silent = await readFile(await makeClip({ format: 'webm', seconds: 2, audio: false }));
  });
  afterAll(async () => {
    await t?.close();
  });

  const from = () => `10.61.${(++ip >> 8) & 255}.${ip & 255}`;

  async function pendingRequest(language: 'english' | 'french' = 'french') {
    const me = await signedInCompany(t, { companyName: `Fleurs ${ip}-${Date.now()}` });
    const q = (await me.post('/api/questions/add', { company_id: me.companyId, text: 'Qu’est-ce qui vous a plu ?', order_position: 1 })).json();
    const { testimonial } = (
      await me.post('/api/testimonials/request', { customer_email: 'cust@example.test', customer_name: 'Camille', question_ids: [q.id], language })
    ).json();
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, testimonial.id));
    return { me, id: testimonial.id as string, token: row!.token, q: q.id as string };
  }

  const validate = (token: string, remoteAddress = from()) =>
    t.app.inject({ method: 'GET', url: `/api/public/testimonial/validate/${token}`, remoteAddress });

  type Part = { name: string; value: string } | { name: string; filename: string; content: Buffer; type: string };
  const fieldsOf = (r: { id: string; token: string; q: string }, over: Record<string, string> = {}): Part[] =>
    Object.entries({
      'questionIds[0]': r.q,
      'bgColors[0]': '#112233',
      name: 'Camille Roy',
      title: 'Fleuriste',
      testimonialId: r.id,
      token: r.token,
      consentVersion: 'image-rights-v1',
      ...over,
    }).map(([name, value]) => ({ name, value }));
  const video = (content: Buffer, name = 'videos'): Part => ({ name, filename: 'video0.webm', content, type: 'video/webm' });
  const save = (parts: Part[], app: TestApp = t) =>
    app.app.inject({ method: 'POST', url: '/api/public/testimonial/save', remoteAddress: from(), ...multipart(parts) });

  /** The answer in the contract's error shape, with the reason's English message as its text. */
  function refusal(res: { statusCode: number; body: string; json: () => unknown }, status: number) {
    expect(res.statusCode, res.body).toBe(status);
    const body = ZApiError.parse(res.json());
    expect(isErrorReason(body.reason), body.reason).toBe(true);
    if (isErrorReason(body.reason)) expect(body.error).toBe(errorReasonMessage(body.reason, body.params));
    return body;
  }

  it('validate: a bad link, an expired one and one already sent, with the request language', async () => {
    expect(refusal(await validate('not-a-real-token'), 404)).toMatchObject({ code: 'not_found', reason: 'link_invalid', params: {} });

    const r = await pendingRequest('french');
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, r.id));
    await t.ctx.db.update(testimonialRequests).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(testimonialRequests.id, r.id));
    const expired = refusal(await validate(r.token), 410);
    expect(expired).toMatchObject({ code: 'invalid_data', reason: 'link_expired', params: { language: 'fr' } });
    expect(expired.params?.company).toEqual(expect.stringMatching(/^Fleurs /));

    await t.ctx.db.update(testimonialRequests).set({ status: 'completed', expiresAt: row!.expiresAt }).where(eq(testimonialRequests.id, r.id));
    expect(refusal(await validate(r.token), 409)).toMatchObject({ code: 'conflict', reason: 'already_sent', params: { language: 'fr' } });

    const english = await pendingRequest('english');
    await t.ctx.db.update(testimonialRequests).set({ status: 'completed' }).where(eq(testimonialRequests.id, english.id));
    expect(refusal(await validate(english.token), 409)).toMatchObject({ reason: 'already_sent', params: { language: 'en' } });
  });

  it('validate: past the per-address limit, rate_limited', async () => {
    const address = from();
    let last = await validate('not-a-real-token', address);
    for (let i = 0; i < 60 && last.statusCode !== 429; i++) last = await validate('not-a-real-token', address);
    expect(refusal(last, 429)).toMatchObject({ code: 'rate_limited', errorKey: 'rateLimited', reason: 'rate_limited' });
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('save: the link, the form and each recording refused with a reason naming the answer', async () => {
    const r = await pendingRequest();

    const notMultipart = await t.app.inject({ method: 'POST', url: '/api/public/testimonial/save', remoteAddress: from(), payload: { token: r.token } });
    expect(refusal(notMultipart, 415)).toMatchObject({ code: 'unsupported_media_type', reason: 'multipart_expected' });

    const badLink = await save([...fieldsOf({ ...r, token: 'unknown-token-value' }), video(webm)]);
    expect(refusal(badLink, 404)).toMatchObject({ reason: 'link_invalid' });

    const tokenLast = await save([{ name: 'questionIds[0]', value: r.q }, video(webm), { name: 'token', value: r.token }]);
    expect(refusal(tokenLast, 400)).toMatchObject({ code: 'missing_fields', reason: 'token_before_videos', field: 'token' });

    const strangeField = await save([...fieldsOf(r), video(webm, 'photo')]);
    expect(refusal(strangeField, 400)).toMatchObject({ reason: 'unexpected_file_field', params: { field: 'photo' } });

    const tooMany = await save([...fieldsOf(r), video(webm), video(webm)]);
    expect(refusal(tooMany, 400)).toMatchObject({ code: 'invalid_data', reason: 'too_many_recordings' });

    const big = await save([...fieldsOf(r), video(Buffer.alloc(1200 * 1024, 7))]);
    expect(refusal(big, 413)).toMatchObject({ code: 'payload_too_large', reason: 'answer_too_large', params: { answer: 1, megabytes: 1 } });

    const noSound = await save([...fieldsOf(r), video(silent)]);
    expect(refusal(noSound, 400)).toMatchObject({ code: 'invalid_format', reason: 'answer_no_sound', params: { answer: 1 } });

    const garbage = await save([...fieldsOf(r), video(Buffer.alloc(4096, 1))]);
    expect(refusal(garbage, 400)).toMatchObject({ code: 'invalid_format', reason: 'answer_unreadable', params: { answer: 1 } });

    const noConsent = await save([...fieldsOf(r, { consentVersion: 'none' }), video(webm)]);
    expect(refusal(noConsent, 400)).toMatchObject({ reason: 'consent_required', field: 'consentVersion' });

    const other = await pendingRequest();
    const foreign = await save([...fieldsOf({ ...r, q: other.q }), video(webm)]);
    expect(refusal(foreign, 400)).toMatchObject({ reason: 'question_not_asked', field: 'questionIds' });

    await t.ctx.db.update(testimonialRequests).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(testimonialRequests.id, r.id));
    const expired = await save([...fieldsOf(r), video(webm)]);
    expect(refusal(expired, 410)).toMatchObject({ reason: 'link_expired', params: { language: 'fr' } });

    // Nothing of the refused calls was kept: the request still takes its answers.
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, r.id));
    expect(row?.status).toBe('pending');
  });

  it('save: a flood of fields is refused by the multipart reader with too_many_parts', async () => {
    const r = await pendingRequest();
    const junk = Array.from({ length: 400 }, (_, i) => ({ name: `junk${i}`, value: 'x' }));
    expect(refusal(await save([...fieldsOf(r), ...junk, video(webm)]), 413)).toMatchObject({ code: 'payload_too_large', reason: 'too_many_parts' });
  });

  it("a company's wrong-state refusal: conflict with its reason", async () => {
    const r = await pendingRequest();
    const pay = await r.me.post(`/api/testimonials/pay/${r.id}`);
    expect(refusal(pay, 409)).toMatchObject({ code: 'conflict', reason: 'nothing_to_unlock' });
  });

  // Last: a second app resets the worker's tables.
  it('save: past the hour budget of the address, upload_budget_exhausted', async () => {
    const small = await createTestApp({ env: { UPLOAD_MAX_BYTES: String(1024 * 1024), UPLOAD_BUDGET_BYTES_PER_HOUR: '1024' } });
    try {
      const me = await signedInCompany(small);
      const q = (await me.post('/api/questions/add', { company_id: me.companyId, text: 'Why?', order_position: 1 })).json();
      const { testimonial } = (
        await me.post('/api/testimonials/request', { customer_email: 'c@example.test', customer_name: 'C', question_ids: [q.id], language: 'english' })
      ).json();
      const [row] = await small.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, testimonial.id));
      const res = await save([...fieldsOf({ id: testimonial.id, token: row!.token, q: q.id }), video(webm)], small);
      expect(refusal(res, 429)).toMatchObject({ code: 'rate_limited', reason: 'upload_budget_exhausted', errorKey: 'rateLimited' });
    } finally {
      await small.close();
    }
  });
});
