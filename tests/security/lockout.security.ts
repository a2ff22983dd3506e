/**
 * Targeted lock-out (issue 15, item 12): a stranger who knows an address must not be able to keep its
 * owner out, by guessing passwords or by asking for reset or confirmation links, while guessing stays slow. Every
 * attack goes through HTTP from chosen client addresses.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailTokens, users } from '../../src/server/db/schema.js';
import { RESET_MAIL_COOLDOWN_MS } from '../../src/server/modules/auth/auth.service.js';
import { ACCOUNT_FAILURE_CEILING, PAIR_FREE_FAILURES } from '../../src/server/modules/auth/signin-throttle.js';
import { hashToken } from '../../src/server/modules/auth/tokens.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';
import { startSmtpCatcher } from '../../src/server/test/smtp-catcher.js';

describe('targeted lock-out', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  let n = 0;
  const ip = () => `10.77.${Math.floor(n / 250)}.${(n++ % 250) + 1}`;

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    t = await createTestApp({ work: true, env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const post = (url: string, payload: object, from: string) => t.app.inject({ method: 'POST', url, payload, remoteAddress: from });
  const signin = (email: string, password: string, from: string) => post('/api/auth/signin', { email, password }, from);
  const resetLinksTo = (email: string) =>
    smtp.mails
      .filter((m) => m.to.some((r) => r.toLowerCase() === email.toLowerCase()) && /Reset your/.test(m.email.subject ?? ''))
      .map((m) => new URL(m.links.find((l) => l.includes('/reset-password#access_token='))!).hash.replace('#access_token=', ''));

  it('lets the owner sign in from another address after ten wrong passwords from one address', async () => {
    const victim = await signedInCompany(t);
    const attacker = ip();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await signin(victim.email, `guess-${i}`, attacker)).statusCode);
    // Guessing from that address is slowed after a few tries: the rest wait, and are not even checked.
    expect(statuses.slice(0, PAIR_FREE_FAILURES).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(PAIR_FREE_FAILURES).every((s) => s === 429)).toBe(true);
    const slowed = await signin(victim.email, 'secret12', attacker);
    expect(slowed.statusCode).toBe(429);
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(slowed.json()).toMatchObject({ code: 'rate_limited', errorKey: 'rateLimited', error: expect.stringMatching(/wait/) });

    const owner = await signin(victim.email.toUpperCase(), 'secret12', ip());
    expect(owner.statusCode, owner.body).toBe(200);
  });

  it('lets the owner in even when many addresses guess, while each of them is slowed', async () => {
    const victim = await signedInCompany(t);
    // Enough addresses, each using its free tries, to pass the account's ceiling.
    const attackers = Array.from({ length: Math.ceil(ACCOUNT_FAILURE_CEILING / PAIR_FREE_FAILURES) }, ip);
    for (const from of attackers) {
      for (let i = 0; i < PAIR_FREE_FAILURES; i++) expect((await signin(victim.email, `guess-${from}-${i}`, from)).statusCode).toBe(401);
    }
    // Under attack, a new address gets a single free try at this account before it waits.
    const late = ip();
    expect((await signin(victim.email, 'guess-late', late)).statusCode).toBe(401);
    expect((await signin(victim.email, 'guess-late-2', late)).statusCode).toBe(429);
    // The owner's first try from their own address always counts.
    expect((await signin(victim.email, 'secret12', ip())).statusCode).toBe(200);
  });

  it('counts a burst of parallel guesses from one address before any of them is answered', async () => {
    const victim = await signedInCompany(t);
    const attacker = ip();
    const statuses = (await Promise.all(Array.from({ length: 15 }, (_, i) => signin(victim.email, `burst-${i}`, attacker)))).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(PAIR_FREE_FAILURES);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15 - PAIR_FREE_FAILURES);
  });

  it('counts an IPv6 client by its /64, so rotating addresses inside it gains no tries', async () => {
    const victim = await signedInCompany(t);
    for (let i = 1; i <= PAIR_FREE_FAILURES; i++) expect((await signin(victim.email, `v6-${i}`, `2001:db8:7:7::${i}`)).statusCode).toBe(401);
    expect((await signin(victim.email, 'v6-next', '2001:db8:7:7:ffff::1')).statusCode).toBe(429);
    expect((await signin(victim.email, 'secret12', '2001:db8:7:8::1')).statusCode).toBe(200);
  });

  it("neither blocks the owner's reset nor cancels the link sent when a stranger asks for reset links", async () => {
    const victim = await signedInCompany(t);
    for (let i = 0; i < 4; i++) {
      const asked = await post('/api/auth/forgot-password', { email: victim.email, lang: 'en' }, ip());
      expect(asked.statusCode).toBe(200);
    }
    // The owner asks too: the same answer as anyone, never a refusal.
    const own = await post('/api/auth/forgot-password', { email: victim.email, lang: 'en' }, ip());
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual({ success: true });
    await smtp.waitFor(victim.email, /Reset your/);
    // The mail job runs in the background: give any further mail time to arrive before counting.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const links = resetLinksTo(victim.email);
    expect(links, 'one mail per cool-down, whoever asks').toHaveLength(1);

    const reset = await post('/api/auth/reset-password', { access_token: links[0]!, new_password: 'owner-new-pass' }, ip());
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await signin(victim.email, 'owner-new-pass', ip())).statusCode).toBe(200);
  });

  it("neither cancels nor blocks the owner's confirmation link when a stranger asks to resend it", async () => {
    const email = `new-owner-${Date.now()}@victim.test`;
    const signup = await post('/api/auth/signup', { firstname: 'New', lastname: 'Owner', email, companyName: `Owner ${Date.now()}`, password: 'secret12', lang: 'en' }, ip());
    expect(signup.statusCode, signup.body).toBe(201);
    const first = await smtp.waitFor(email, /Confirm your e-mail address/);
    const link = first.links.find((l) => l.includes('confirm-email'))!.replace(/^https?:\/\/[^/]+/, '');
    for (let i = 0; i < 5; i++) {
      const asked = await post('/api/auth/resend-confirmation', { email, lang: 'en' }, ip());
      expect(asked.statusCode, 'a stranger gets the same answer as anyone').toBe(200);
    }
    // The owner asks too: never a refusal.
    const own = await post('/api/auth/resend-confirmation', { email, lang: 'en' }, ip());
    expect(own.statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const confirmations = smtp.mails.filter((m) => m.to.some((r) => r.toLowerCase() === email) && /Confirm your/.test(m.email.subject ?? ''));
    expect(confirmations, 'one mail per cool-down, whoever asks').toHaveLength(1);
    const confirmed = await t.app.inject({ method: 'GET', url: link });
    expect(confirmed.headers.location, 'the first link still confirms').toMatch(/confirm=confirmed&email=/);
    expect((await signin(email, 'secret12', ip())).statusCode).toBe(200);
  });

  it('keeps an earlier reset link working after a later one is sent, until one of them is used', async () => {
    const victim = await signedInCompany(t);
    await post('/api/auth/forgot-password', { email: victim.email, lang: 'en' }, ip());
    await expect.poll(() => resetLinksTo(victim.email).length, { timeout: 15_000 }).toBe(1);
    // The cool-down has passed (the first link was sent that long ago): a second call sends a second link.
    const [user] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, victim.email));
    await t.ctx.db
      .update(emailTokens)
      .set({ createdAt: new Date(Date.now() - RESET_MAIL_COOLDOWN_MS - 1000) })
      .where(and(eq(emailTokens.userId, user!.id), eq(emailTokens.purpose, 'reset_password')));
    await post('/api/auth/forgot-password', { email: victim.email, lang: 'en' }, ip());
    await expect.poll(() => resetLinksTo(victim.email).length, { timeout: 15_000 }).toBe(2);
    const [first, second] = resetLinksTo(victim.email);

    const reset = await post('/api/auth/reset-password', { access_token: first!, new_password: 'first-link-pass' }, ip());
    expect(reset.statusCode, 'the first link still works').toBe(200);
    // Using one link ends the others: a copy of the second one is worth nothing now.
    const other = await post('/api/auth/reset-password', { access_token: second!, new_password: 'second-link-pass' }, ip());
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ errorKey: 'tokenExpired' });
    const [row] = await t.ctx.db.select().from(emailTokens).where(eq(emailTokens.tokenHash, hashToken(second!)));
    expect(row?.usedAt).not.toBeNull();
    expect((await signin(victim.email, 'first-link-pass', ip())).statusCode).toBe(200);
  });
});
