/**
 * The customer's pages (issue 29), attacked: their tokens cannot be guessed and are stored only hashed,
 * each opens its own page alone (page, approval, recording link), a page shows nothing of another
 * testimonial, the actions refuse other sites and missing or forged anti-forgery fields, and an address
 * that keeps missing is slowed down without costing a token holder anything.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_TOKEN_PATTERN } from '../../src/contract/api/consent.schema.js';
import { approvals, consentEvents, testimonialRequests, testimonialResponses } from '../../src/server/db/schema.js';
import { actionProof, hashCustomerToken, newCustomerToken } from '../../src/server/modules/consent/customer.tokens.js';
import { PUBLIC_MISS_POLICY } from '../../src/server/modules/publications/public-misses.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';
import { completedTestimonial } from '../../src/server/test/testimonials.js';

describe('customer pages', () => {
  let t: TestApp;
  let mine: { id: string; token: string; recordingToken: string; responseId: string; approvalToken: string };
  let other: { id: string; responseId: string; customerName: string; question: string };

  const get = (url: string, headers: Record<string, string> = {}, remoteAddress = '10.60.0.1') => t.app.inject({ method: 'GET', url, headers, remoteAddress });
  const postForm = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, remoteAddress: '10.60.0.2', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: new URLSearchParams(fields).toString() });

  /** The receipt's token of a testimonial, from its e-mail in the outbox. */
  async function pageToken(email: string): Promise<string> {
    const { rows } = (await t.ctx.database.executeSql("select data from pgboss.job where name = 'send-mail'")) as { rows: { data: { to: string; text: string } }[] };
    const text = rows.find((r) => r.data.to === email && r.data.text.includes('/my-testimonial/'))?.data.text ?? '';
    return /\/my-testimonial\/([A-Za-z0-9_-]{43})/.exec(text)![1]!;
  }

  beforeAll(async () => {
    t = await createTestApp();
    const me = await signedInCompany(t);
    const a = await completedTestimonial(t, me);
    const b = await completedTestimonial(t, me);
    const [ra] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, a.id));
    const [rb] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, b.id));
    const [answerA] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, a.id));
    const [answerB] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, b.id));
    const approvalToken = newCustomerToken();
    await t.ctx.db.insert(approvals).values({ companyId: me.companyId, requestId: a.id, responseId: answerA!.id, tokenHash: hashCustomerToken(approvalToken) });
    mine = { id: a.id, token: await pageToken(ra!.customerEmail!), recordingToken: ra!.token, responseId: answerA!.id, approvalToken };
    other = { id: b.id, responseId: answerB!.id, customerName: rb!.customerName, question: answerB!.questionText };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('makes tokens of 256 random bits, never twice the same, and stores none of them in plain text', async () => {
    const made = Array.from({ length: 2000 }, newCustomerToken);
    expect(new Set(made).size).toBe(made.length);
    for (const token of made.slice(0, 50)) {
      expect(token).toMatch(CUSTOMER_TOKEN_PATTERN);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
    expect(mine.token).toMatch(CUSTOMER_TOKEN_PATTERN);
    expect(mine.token).not.toBe(mine.recordingToken);
    // No table of the app holds the page's or the approval's token, only their SHA-256.
    const { rows: tables } = (await t.ctx.database.executeSql("select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'")) as {
      rows: { table_name: string }[];
    };
    expect(tables.length).toBeGreaterThan(10);
    for (const { table_name } of tables) {
      const { rows } = (await t.ctx.database.executeSql(`select t::text as row from "${table_name}" t`)) as { rows: { row: string }[] };
      for (const { row } of rows) {
        expect(row.includes(mine.token), `${table_name} holds the page token`).toBe(false);
        expect(row.includes(mine.approvalToken), `${table_name} holds the approval token`).toBe(false);
      }
    }
    const [request] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, mine.id));
    expect(request!.customerPageTokenHash).toBe(hashCustomerToken(mine.token));
  });

  it('opens each page with its own token only: the page, the approval and the recording link are not interchangeable', async () => {
    expect((await get(`/my-testimonial/${mine.token}`)).statusCode).toBe(200);
    expect((await get(`/approve/${mine.approvalToken}`)).statusCode).toBe(200);
    expect((await get(`/approve/${mine.token}`)).statusCode).toBe(404);
    expect((await get(`/approve/${mine.token}/video`)).statusCode).toBe(404);
    expect((await get(`/my-testimonial/${mine.approvalToken}`)).statusCode).toBe(404);
    expect((await get(`/my-testimonial/${mine.approvalToken}/answers/${mine.responseId}`)).statusCode).toBe(404);
    for (const path of [`/my-testimonial/${mine.recordingToken}`, `/approve/${mine.recordingToken}`, `/my-testimonial/${mine.recordingToken}/answers/${mine.responseId}`]) {
      expect((await get(path)).statusCode, path).toBe(404);
    }
    expect((await get(`/api/public/testimonial/validate/${mine.token}`)).statusCode).toBe(404);
    // Its hash is no key either.
    expect((await get(`/my-testimonial/${hashCustomerToken(mine.token)}`)).statusCode).toBe(404);
  });

  it('shows nothing of another testimonial, and serves none of its answers', async () => {
    const page = await get(`/my-testimonial/${mine.token}`);
    for (const marker of [other.id, other.responseId, other.customerName, other.question]) expect(page.body.includes(marker), marker).toBe(false);
    expect((await get(`/my-testimonial/${mine.token}/answers/${other.responseId}`)).statusCode).toBe(404);
    expect((await get(`/my-testimonial/${mine.token}/remove/${other.responseId}`)).statusCode).toBe(404);
    const proof = actionProof(t.ctx.secrets.jwt, hashCustomerToken(mine.token), `remove:${other.responseId}`);
    expect((await postForm(`/my-testimonial/${mine.token}/remove/${other.responseId}`, { proof })).statusCode).toBe(404);
    const [answer] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, other.responseId));
    expect(answer!.removalRequestedAt).toBeNull();
    // Private: never framed, never indexed, never cached, no referrer.
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(page.headers['x-robots-tag']).toMatch(/noindex/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('same-origin');
  });

  it('refuses the actions from another site and without their own anti-forgery field', async () => {
    const hash = hashCustomerToken(mine.token);
    const withdraw = `/my-testimonial/${mine.token}/withdraw`;
    const good = actionProof(t.ctx.secrets.jwt, hash, 'withdraw');
    const refusals: [string, Promise<{ statusCode: number }>][] = [
      ['no field', postForm(withdraw, {})],
      ['a forged field', postForm(withdraw, { proof: good.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) })],
      ['another action’s field', postForm(withdraw, { proof: actionProof(t.ctx.secrets.jwt, hash, 'approve') })],
      ['another token’s field', postForm(withdraw, { proof: actionProof(t.ctx.secrets.jwt, hashCustomerToken(newCustomerToken()), 'withdraw') })],
      ['a field signed with another key', postForm(withdraw, { proof: actionProof('another-secret-of-at-least-32-characters', hash, 'withdraw') })],
      ['a foreign Origin', postForm(withdraw, { proof: good }, { origin: 'https://attacker.test' })],
      ['a null Origin', postForm(withdraw, { proof: good }, { origin: 'null' })],
      ['a null Origin from another site', postForm(withdraw, { proof: good }, { origin: 'null', 'sec-fetch-site': 'cross-site' })],
      ['Sec-Fetch-Site cross-site', postForm(withdraw, { proof: good }, { 'sec-fetch-site': 'cross-site' })],
      ['Sec-Fetch-Site same-site', postForm(withdraw, { proof: good }, { 'sec-fetch-site': 'same-site' })],
      ['an approval from another site', postForm(`/approve/${mine.approvalToken}/approve`, { proof: actionProof(t.ctx.secrets.jwt, hashCustomerToken(mine.approvalToken), 'approve') }, { origin: 'https://attacker.test' })],
      ['an approval without its field', postForm(`/approve/${mine.approvalToken}/approve`, {})],
      ['an approval with the page’s field', postForm(`/approve/${mine.approvalToken}/approve`, { proof: actionProof(t.ctx.secrets.jwt, hash, 'approve') })],
    ];
    for (const [label, res] of refusals) expect((await res).statusCode, label).toBe(403);
    // A cross-site form of type text/plain is not even read.
    const plain = await t.app.inject({ method: 'POST', url: withdraw, headers: { 'content-type': 'text/plain' }, payload: `proof=${good}` });
    expect(plain.statusCode).toBe(415);

    const [request] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, mine.id));
    expect(request!.consentWithdrawnAt).toBeNull();
    expect((await t.ctx.db.select().from(approvals).where(eq(approvals.requestId, mine.id)))[0]!.state).toBe('pending');
    expect(await t.ctx.db.select().from(consentEvents).where(eq(consentEvents.requestId, mine.id))).toEqual([]);
  });

  it('slows down an address that keeps missing, never a holder of a real token', async () => {
    const scanner = '10.61.0.9';
    for (let i = 0; i < PUBLIC_MISS_POLICY.freePerMinute; i += 1) {
      expect((await get(`/my-testimonial/${newCustomerToken()}`, {}, scanner)).statusCode).toBe(404);
    }
    const penalised = await get(`/approve/${newCustomerToken()}`, {}, scanner);
    expect(penalised.statusCode).toBe(429);
    expect(Number(penalised.headers['retry-after'])).toBeGreaterThan(0);
    expect((await get(`/my-testimonial/${newCustomerToken()}`, {}, scanner)).statusCode).toBe(429);
    // The same address with a real token is served as always.
    expect((await get(`/my-testimonial/${mine.token}`, {}, scanner)).statusCode).toBe(200);
    expect((await get(`/approve/${mine.approvalToken}`, {}, scanner)).statusCode).toBe(200);
    // Another address is not affected.
    expect((await get(`/my-testimonial/${newCustomerToken()}`, {}, '10.62.0.1')).statusCode).toBe(404);
  });
});
