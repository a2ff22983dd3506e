import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditTransactions, emailTokens, refreshTokens } from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { startSmtpCatcher } from '../../test/smtp-catcher.js';
import { hashToken } from './tokens.js';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
let ipCounter = 1;
/** Each test speaks from its own address, so per-address rate limits do not leak between tests. */
const freshIp = () => `10.0.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  t = await createTestApp({ work: true, env: { SMTP_URL: smtp.url, FREE_CREDITS: '2' } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const post = (url: string, payload: object, opts: { ip?: string; headers?: Record<string, string> } = {}) =>
  t.app.inject({ method: 'POST', url, payload, remoteAddress: opts.ip ?? freshIp(), ...(opts.headers ? { headers: opts.headers } : {}) });

const signupBody = (over: Partial<Record<string, unknown>> = {}) => ({
  firstname: 'Anna',
  lastname: 'Bloom',
  email: `anna.${Math.random().toString(36).slice(2, 8)}@bloom.test`,
  companyName: `Bloom ${Math.random().toString(36).slice(2, 8)}`,
  password: 'secret12',
  lang: 'fr',
  ...over,
});

/** Signs up, follows the confirmation link from the captured mail, and signs in. */
async function confirmedAccount(over: Partial<Record<string, unknown>> = {}, rememberMe = false) {
  const body = signupBody(over);
  const res = await post('/api/auth/signup', body);
  expect(res.statusCode, res.body).toBe(201);
  const mail = await smtp.waitFor(body.email as string, /Confirmez/);
  const link = mail.links.find((l) => l.includes('/api/auth/confirm-email'))!;
  const confirm = await t.app.inject({ method: 'GET', url: link.replace(t.config.appUrl, '') });
  expect(confirm.statusCode).toBe(303);
  const signin = await post('/api/auth/signin', { email: body.email, password: body.password, rememberMe });
  expect(signin.statusCode, signin.body).toBe(200);
  return { body, session: signin.json() as { token: string; refreshToken: string; user: { id: string; company_id: string } } };
}

describe('sign-up', () => {
  it('creates the company and user, grants the sign-up credits, and mails a confirmation link in the chosen language', async () => {
    const body = signupBody();
    const res = await post('/api/auth/signup', body);
    expect(res.statusCode).toBe(201);
    const { user, token, refreshToken } = res.json();
    expect(token).toBeUndefined();
    expect(refreshToken).toBeUndefined();
    expect(user).toMatchObject({ email: body.email, firstname: 'Anna', email_confirmed: false, onboarding_completed: false, mail_language: 'fr' });
    expect(user.company.name).toBe(body.companyName);

    const ledger = await t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.companyId, user.company_id));
    expect(ledger).toMatchObject([{ transactionType: 'signup_bonus', credits: 2 }]);

    const mail = await smtp.waitFor(body.email, /Confirmez votre adresse e-mail/);
    expect(mail.email.text).toContain('Bonjour Anna');
    expect(mail.links.some((l) => l.startsWith('http://app.test/api/auth/confirm-email?token='))).toBe(true);
  });

  it('refuses a company name that exists in another case (name_exists) and leaves no user behind', async () => {
    const first = signupBody({ companyName: 'Garage Dupont' });
    expect((await post('/api/auth/signup', first)).statusCode).toBe(201);
    const second = signupBody({ companyName: 'GARAGE dupont' });
    const res = await post('/api/auth/signup', second);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'name_exists', field: 'companyName' });
    const signin = await post('/api/auth/signin', { email: second.email, password: 'secret12' });
    expect(signin.json().errorKey).toBe('incorrectCredentials');
  });

  it('refuses an e-mail that exists in another case with the e-mail exists key', async () => {
    const first = signupBody({ email: 'paul@studio.test' });
    expect((await post('/api/auth/signup', first)).statusCode).toBe(201);
    const res = await post('/api/auth/signup', signupBody({ email: 'Paul@Studio.TEST' }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'duplicate_record', errorKey: 'emailExists' });
  });

  it('validates the payload and names the field', async () => {
    const short = await post('/api/auth/signup', signupBody({ password: '123' }));
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ field: 'password', error: expect.stringMatching(/at least 6/) });
    const email = await post('/api/auth/signup', signupBody({ email: 'not-an-email' }));
    expect(email.statusCode).toBe(400);
    expect(email.json().field).toBe('email');
    const blank = await post('/api/auth/signup', signupBody({ companyName: '   ' }));
    expect(blank.statusCode).toBe(400);
    expect(blank.json().field).toBe('companyName');
  });
});

describe('confirmation link', () => {
  it('confirms once, then says the link was used; unknown links say invalid', async () => {
    const body = signupBody();
    await post('/api/auth/signup', body);
    const mail = await smtp.waitFor(body.email, /Confirmez/);
    const link = mail.links.find((l) => l.includes('confirm-email'))!.replace('http://app.test', '');

    const unconfirmed = await post('/api/auth/signin', { email: body.email, password: body.password });
    expect(unconfirmed.statusCode).toBe(403);
    expect(unconfirmed.json().errorKey).toBe('emailUnconfirmed');

    const first = await t.app.inject({ method: 'GET', url: link });
    // The address rides along so that the sign-in form starts filled in (decision 160).
    expect(first.headers.location).toBe(`http://app.test/signin?confirm=confirmed&email=${encodeURIComponent(body.email)}`);
    const again = await t.app.inject({ method: 'GET', url: link });
    expect(again.headers.location).toBe(`http://app.test/signin?confirm=used&email=${encodeURIComponent(body.email)}`);
    const bogus = await t.app.inject({ method: 'GET', url: '/api/auth/confirm-email?token=nope' });
    expect(bogus.headers.location).toBe('http://app.test/signin?confirm=invalid');
  });

  it('says an expired link has expired, and resending sends a new one that works', async () => {
    const body = signupBody({ lang: 'en' });
    await post('/api/auth/signup', body);
    const mail = await smtp.waitFor(body.email, /Confirm your e-mail address/);
    const token = new URL(mail.links.find((l) => l.includes('confirm-email'))!).searchParams.get('token')!;
    await t.ctx.db.update(emailTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailTokens.tokenHash, hashToken(token)));
    const expired = await t.app.inject({ method: 'GET', url: `/api/auth/confirm-email?token=${token}` });
    expect(expired.headers.location).toContain('confirm=expired');

    const before = smtp.mails.length;
    const resend = await post('/api/auth/resend-confirmation', { email: body.email.toUpperCase(), lang: 'en' });
    expect(resend.json()).toEqual({ success: true });
    await expect.poll(() => smtp.mails.length, { timeout: 10_000 }).toBe(before + 1);
    const fresh = smtp.mails.at(-1)!;
    const ok = await t.app.inject({ method: 'GET', url: fresh.links.find((l) => l.includes('confirm-email'))!.replace('http://app.test', '') });
    expect(ok.headers.location).toBe(`http://app.test/signin?confirm=confirmed&email=${encodeURIComponent(body.email)}`);
  });

  it('answers resend the same for unknown e-mails, and sends one e-mail per cool-down whoever asks', async () => {
    const unknown = await post('/api/auth/resend-confirmation', { email: 'ghost@nowhere.test', lang: 'en' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ success: true });
    const body = signupBody({ lang: 'en' });
    await post('/api/auth/signup', body);
    await smtp.waitFor(body.email, /Confirm your e-mail address/);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post('/api/auth/resend-confirmation', { email: body.email, lang: 'en' })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200]);
    // The mail job runs in the background: give any further mail time to arrive before counting.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.mails.filter((m) => m.to.includes(body.email))).toHaveLength(1);
  });
});

describe('sign-in and sessions', () => {
  it('signs in without regard to case and returns tokens and the user', async () => {
    const { body, session } = await confirmedAccount();
    const again = await post('/api/auth/signin', { email: (body.email as string).toUpperCase(), password: body.password });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ token: expect.any(String), refreshToken: expect.any(String), user: { email: body.email, email_confirmed: true } });
    expect(session.user.company_id).toBeTruthy();
  });

  it('gives the same answer for an unknown e-mail and a wrong password, in about the same time', async () => {
    const { body } = await confirmedAccount();
    const time = async (payload: object) => {
      const started = performance.now();
      const res = await post('/api/auth/signin', payload);
      return { ms: performance.now() - started, json: res.json(), status: res.statusCode };
    };
    const wrong = [];
    const unknown = [];
    for (let i = 0; i < 5; i++) {
      wrong.push(await time({ email: body.email, password: `wrong-password-${i}` }));
      unknown.push(await time({ email: `nobody${i}@nowhere.test`, password: 'wrong-password' }));
    }
    for (const r of [...wrong, ...unknown]) expect(r.status).toBe(401);
    expect(unknown[0]?.json).toEqual(wrong[0]?.json);
    expect(wrong[0]?.json).toEqual({ error: 'The e-mail or password is incorrect.', code: 'unauthorized', errorKey: 'incorrectCredentials' });
    // Both paths verify one argon2id hash: their median times are of the same order.
    const median = (xs: { ms: number }[]) => xs.map((x) => x.ms).sort((a, b) => a - b)[2]!;
    expect(median(unknown)).toBeGreaterThan(median(wrong) / 3);
    expect(median(wrong)).toBeGreaterThan(median(unknown) / 3);
  });

  it('answers /me with the user, the token and the echoed refresh token; rejects missing and forged tokens', async () => {
    const { session } = await confirmedAccount();
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${session.token}`, 'x-refresh-token': session.refreshToken },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ token: session.token, refreshToken: session.refreshToken, user: { id: session.user.id } });

    const none = await t.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 'unauthorized', errorKey: 'unauthorized' });
    const forged = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${session.token.slice(0, -4)}AAAA` } });
    expect(forged.statusCode).toBe(401);
  });

  it('rotates the refresh token on every use, and a reused token revokes the whole family', async () => {
    const { session } = await confirmedAccount();
    const first = await post('/api/auth/refresh', { refresh_token: session.refreshToken });
    expect(first.statusCode).toBe(200);
    const pair = first.json();
    expect(pair.refreshToken).not.toBe(session.refreshToken);
    expect(pair.token).toEqual(expect.any(String));

    // The stolen (already rotated) token is presented: refused, and the legitimate new one dies too.
    const reuse = await post('/api/auth/refresh', { refresh_token: session.refreshToken });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().errorKey).toBe('sessionExpired');
    const after = await post('/api/auth/refresh', { refresh_token: pair.refreshToken });
    expect(after.statusCode).toBe(401);

    const stored = await t.ctx.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hashToken(pair.refreshToken)));
    expect(stored).toHaveLength(1); // stored as a hash, never the token itself
  });

  it('lives 30 days with remember-me and 1 day without', async () => {
    const { session: remembered } = await confirmedAccount({}, true);
    const { session: plain } = await confirmedAccount({}, false);
    const lifetime = async (refreshToken: string) => {
      const { rows } = await t.ctx.database.executeSql(
        `select extract(epoch from (f.expires_at - f.created_at))::int as s from refresh_tokens r join refresh_token_families f on f.id = r.family_id where r.token_hash = $1`,
        [hashToken(refreshToken)],
      );
      return (rows[0] as { s: number }).s;
    };
    expect(Math.round((await lifetime(remembered.refreshToken)) / 86400)).toBe(30);
    expect(Math.round((await lifetime(plain.refreshToken)) / 86400)).toBe(1);
  });

  it('signs out by revoking the family of the presented refresh token', async () => {
    const { session } = await confirmedAccount();
    const out = await post('/api/auth/signout', {}, { headers: { 'x-refresh-token': session.refreshToken } });
    expect(out.json()).toEqual({ success: true });
    const res = await post('/api/auth/refresh', { refresh_token: session.refreshToken });
    expect(res.statusCode).toBe(401);
    // Without a token, sign-out still answers success (the client ignores failures anyway).
    expect((await post('/api/auth/signout', {})).statusCode).toBe(200);
  });

  it('ends the access of the signed-out session at once, and only that session', async () => {
    const { body, session } = await confirmedAccount();
    const other = (await post('/api/auth/signin', { email: body.email, password: body.password })).json<{ token: string }>();
    const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    expect((await me(session.token)).statusCode).toBe(200);
    // The web client sends both tokens; either one is enough to end the session.
    await post('/api/auth/signout', {}, { headers: { authorization: `Bearer ${session.token}` } });
    const after = await me(session.token);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'unauthorized', errorKey: 'sessionExpired' });
    expect((await post('/api/auth/refresh', { refresh_token: session.refreshToken })).statusCode).toBe(401);
    expect((await me(other.token)).statusCode).toBe(200);
  });

  it('slows wrong passwords from one address at one account with growing waits, with the rate limited key', async () => {
    const { body } = await confirmedAccount();
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await post('/api/auth/signin', { email: body.email, password: `guess-${i}` }, { ip })).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    // The sixth try must wait a second, even with the right password (nothing is checked meanwhile).
    const early = await post('/api/auth/signin', { email: body.email, password: body.password }, { ip });
    expect(early.statusCode).toBe(429);
    expect(early.headers['retry-after']).toBe('1');
    expect(early.json()).toMatchObject({ code: 'rate_limited', errorKey: 'rateLimited', error: expect.stringMatching(/wait 1 second/) });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await post('/api/auth/signin', { email: body.email, password: 'guess-5' }, { ip })).statusCode).toBe(401);
    const longer = await post('/api/auth/signin', { email: body.email, password: body.password }, { ip });
    expect(longer.statusCode).toBe(429);
    expect(longer.headers['retry-after']).toBe('2');
    await new Promise((resolve) => setTimeout(resolve, 2100));
    // The right password once the wait is over signs in, and starts this address afresh.
    expect((await post('/api/auth/signin', { email: body.email, password: body.password }, { ip })).statusCode).toBe(200);
    expect((await post('/api/auth/signin', { email: body.email, password: 'guess-6' }, { ip })).statusCode).toBe(401);
  });

  it('rate-limits sign-in per address across e-mails', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await post('/api/auth/signin', { email: `u${i}@x.test`, password: 'x' }, { ip })).statusCode);
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('password reset', () => {
  it('answers the same for unknown e-mails and sends a single-use link that resets the password and ends every session', async () => {
    const { body, session } = await confirmedAccount();
    const unknown = await post('/api/auth/forgot-password', { email: 'nobody@nowhere.test', lang: 'en' });
    const known = await post('/api/auth/forgot-password', { email: body.email, lang: 'en' });
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());

    const mail = await smtp.waitFor(body.email as string, /Reset your/);
    const link = mail.links.find((l) => l.includes('/reset-password#access_token='))!;
    const token = new URL(link).hash.replace('#access_token=', '');

    const reset = await post('/api/auth/reset-password', { access_token: token, new_password: 'n3w-secret' });
    expect(reset.json()).toEqual({ success: true });
    const reused = await post('/api/auth/reset-password', { access_token: token, new_password: 'other-secret' });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().errorKey).toBe('tokenExpired');

    expect((await post('/api/auth/refresh', { refresh_token: session.refreshToken })).statusCode).toBe(401);
    expect((await post('/api/auth/signin', { email: body.email, password: body.password })).statusCode).toBe(401);
    expect((await post('/api/auth/signin', { email: body.email, password: 'n3w-secret' })).statusCode).toBe(200);
  });

  it('refuses an expired reset link and a too short password', async () => {
    const { body } = await confirmedAccount();
    await post('/api/auth/forgot-password', { email: body.email, lang: 'fr' });
    const mail = await smtp.waitFor(body.email as string, /Réinitialisez/);
    const token = new URL(mail.links.find((l) => l.includes('access_token'))!).hash.replace('#access_token=', '');
    const short = await post('/api/auth/reset-password', { access_token: token, new_password: '123' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toMatch(/at least 6 characters/);
    await t.ctx.db.update(emailTokens).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(emailTokens.tokenHash, hashToken(token)));
    const expired = await post('/api/auth/reset-password', { access_token: token, new_password: 'n3w-secret' });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ errorKey: 'tokenExpired', error: 'The reset password link is invalid or expired. Please request a new one.' });
  });
});
