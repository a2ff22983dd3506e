/**
 * Attacks on Google sign-in, against a real OpenID Connect provider on loopback standing in for Google:
 * account pre-hijack (an attacker's unconfirmed account with the victim's address) and login CSRF (an
 * attacker's one-time code redeemed in the victim's browser).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, users } from '../../src/server/db/schema.js';
import { openSession } from '../../src/server/modules/auth/auth.service.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';
import { followRedirects, startOidcStandIn, type StandInAccount } from '../../src/server/test/oidc-stand-in.js';

describe('Google sign-in attacks', () => {
  let t: TestApp;
  let idp: Awaited<ReturnType<typeof startOidcStandIn>>;
  let n = 0;
  const ip = () => `10.77.0.${++n}`;

  beforeAll(async () => {
    idp = await startOidcStandIn({ clientId: 'vouchreel-sec', clientSecret: 'stand-in-secret', redirectUris: ['http://app.test/api/auth/google/callback'] });
    t = await createTestApp({ env: { GOOGLE_ISSUER: idp.issuer, GOOGLE_CLIENT_ID: 'vouchreel-sec', GOOGLE_CLIENT_SECRET: 'stand-in-secret' } });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers, remoteAddress: ip() });

  /**
   * One browser's Google sign-in up to /auth/callback: the start call (its cookies), the provider,
   * our callback. Returns the one-time code from the address and the cookies that browser now holds.
   */
  async function googleRound(account: StandInAccount): Promise<{ code: string; cookies: string }> {
    idp.signInAs(account);
    const start = await post('/api/auth/signin-google', { provider: 'google' });
    expect(start.statusCode, start.body).toBe(200);
    const stateCookie = String(start.headers['set-cookie']).split(';')[0]!;
    const back = await followRedirects((start.json() as { url: string }).url, (u) => u.startsWith('http://app.test/'));
    const callback = await t.app.inject({ method: 'GET', url: back.replace('http://app.test', ''), headers: { cookie: stateCookie }, remoteAddress: ip() });
    expect(callback.statusCode).toBe(303);
    const location = new URL(String(callback.headers.location));
    const code = new URLSearchParams(location.hash.slice(1)).get('access_token');
    expect(code, String(callback.headers.location)).toBeTruthy();
    const cookies = [callback.headers['set-cookie']]
      .flat()
      .map((c) => String(c).split(';')[0]!)
      .filter((c) => !c.endsWith('='))
      .join('; ');
    return { code: code!, cookies };
  }

  const redeem = (code: string, cookies?: string) =>
    post('/api/auth/process-auth-callback', { accessToken: code, authAction: 'signin' }, cookies ? { cookie: cookies } : {});

  const signupBody = (email: string, companyName: string) => ({ firstname: 'A', lastname: 'B', email, companyName, password: 'attacker-pass-1', lang: 'en' });

  it('pre-hijack: an unconfirmed account with the victim address is replaced, never linked, when the victim signs in with Google', async () => {
    const email = 'victim.prehijack@gmail.test';
    // The attacker signs up first with the victim's address and a password of their own. Nobody
    // confirms it (the link goes to the victim's mailbox).
    const attacker = await post('/api/auth/signup', signupBody(email, 'Attacker Holdings'));
    expect(attacker.statusCode, attacker.body).toBe(201);
    const attackerCompanyId = (attacker.json() as { user: { company_id: string } }).user.company_id;
    // Whatever session that account might hold must end with it.
    const [row] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const attackerSession = await openSession(t.ctx, row!.id, true);

    // Later the victim signs in with Google, which verified the address.
    const victimAccount = { sub: 'g-victim-prehijack', email, email_verified: true, given_name: 'Vic', family_name: 'Tim' };
    const round = await googleRound(victimAccount);
    const res = await redeem(round.code, round.cookies);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { isNewUser: boolean; token: string; user: { company_id?: string } };
    // Not signed into the attacker's company: the victim signs up afresh.
    expect(body.isNewUser).toBe(true);
    expect(body.user.company_id).toBeUndefined();
    const victim = await post('/api/auth/signup', {
      firstname: 'Vic',
      lastname: 'Tim',
      email,
      companyName: 'Victim Studio',
      lang: 'en',
      fromGoogle: true,
      googleId: victimAccount.sub,
      accessToken: body.token,
    });
    expect(victim.statusCode, victim.body).toBe(201);
    const victimCompanyId = (victim.json() as { user: { company_id: string } }).user.company_id;
    expect(victimCompanyId).not.toBe(attackerCompanyId);

    // The attacker's password no longer opens anything; their refresh token and access token are dead.
    const signin = await post('/api/auth/signin', { email, password: 'attacker-pass-1' });
    expect(signin.statusCode, signin.body).toBe(401);
    expect(signin.json()).toMatchObject({ code: 'unauthorized', errorKey: 'incorrectCredentials' });
    const refresh = await post('/api/auth/refresh', { refresh_token: attackerSession.refreshToken });
    expect(refresh.statusCode).toBe(401);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${attackerSession.token}` } });
    expect(me.statusCode).toBe(401);
    // The attacker's company is gone, with its credits; the victim is alone in theirs.
    expect(await t.ctx.db.select().from(companies).where(eq(companies.id, attackerCompanyId))).toEqual([]);
    const inVictimCompany = await t.ctx.db.select({ email: users.email }).from(users).where(eq(users.companyId, victimCompanyId));
    expect(inVictimCompany).toEqual([{ email }]);
    // The victim's Google sign-in keeps working, into their own company.
    const again = await googleRound(victimAccount);
    expect((await redeem(again.code, again.cookies)).json()).toMatchObject({ isNewUser: false, user: { company_id: victimCompanyId } });
  });

  it('pre-hijack: an attacker who signs up again while the victim is on the company step is replaced too', async () => {
    const email = 'victim.race@gmail.test';
    const account = { sub: 'g-victim-race', email, email_verified: true, given_name: 'Rae', family_name: 'Ce' };
    const round = await googleRound(account);
    const { token } = (await redeem(round.code, round.cookies)).json() as { token: string };
    const attacker = await post('/api/auth/signup', signupBody(email.toUpperCase(), 'Attacker Again'));
    expect(attacker.statusCode).toBe(201);
    const victim = await post('/api/auth/signup', {
      firstname: 'Rae',
      lastname: 'Ce',
      email,
      companyName: 'Race Studio',
      lang: 'en',
      fromGoogle: true,
      googleId: account.sub,
      accessToken: token,
    });
    expect(victim.statusCode, victim.body).toBe(201);
    expect(victim.json()).toMatchObject({ user: { company: { name: 'Race Studio' }, email_confirmed: true } });
    expect((await post('/api/auth/signin', { email, password: 'attacker-pass-1' })).statusCode).toBe(401);
    const left = await t.ctx.db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`);
    expect(left).toHaveLength(1);
  });

  it('a confirmed password account is still linked (its owner proved the address), keeping its company', async () => {
    const email = 'owner.confirmed@gmail.test';
    const signup = await post('/api/auth/signup', signupBody(email, 'Confirmed Owner Co'));
    const companyId = (signup.json() as { user: { company_id: string } }).user.company_id;
    await t.ctx.db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.email, email));
    const round = await googleRound({ sub: 'g-owner-confirmed', email, email_verified: true, given_name: 'O', family_name: 'C' });
    expect((await redeem(round.code, round.cookies)).json()).toMatchObject({ isNewUser: false, user: { company_id: companyId } });
  });

  it('login CSRF: a one-time code is redeemed only by the browser that started the sign-in', async () => {
    // The attacker signs in with Google as themselves and keeps the code instead of using it.
    const attackerAccount = { sub: 'g-csrf-attacker', email: 'csrf.attacker@gmail.test', email_verified: true, given_name: 'Eve', family_name: 'X' };
    const first = await googleRound(attackerAccount);
    await post('/api/auth/signup', {
      firstname: 'Eve',
      lastname: 'X',
      email: attackerAccount.email,
      companyName: 'Eve Co',
      lang: 'en',
      fromGoogle: true,
      googleId: attackerAccount.sub,
      accessToken: ((await redeem(first.code, first.cookies)).json() as { token: string }).token,
    });
    const planted = await googleRound(attackerAccount);

    // The victim's browser opens /auth/callback#access_token=<planted code>: it has no cookie of that sign-in.
    const noCookie = await redeem(planted.code);
    expect(noCookie.statusCode).toBe(401);
    expect(noCookie.json()).toEqual({ error: expect.any(String), code: 'unauthorized', errorKey: 'sessionExpired' });
    // Nor does a browser holding the key of its own, other Google sign-in.
    const victimOwn = await googleRound({ sub: 'g-csrf-victim', email: 'csrf.victim@gmail.test', email_verified: true, given_name: 'V', family_name: 'Y' });
    const otherBrowser = await redeem(planted.code, victimOwn.cookies);
    expect(otherBrowser.statusCode).toBe(401);
    expect(otherBrowser.json()).toMatchObject({ code: 'unauthorized', errorKey: 'tokenExpired' });
    expect(otherBrowser.json()).not.toHaveProperty('token');
    // Nor a forged key.
    expect((await redeem(planted.code, 'vr_oauth_code=forged-key')).statusCode).toBe(401);

    // The code itself was valid: its own browser redeems it (and only once).
    const own = await redeem(planted.code, planted.cookies);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ isNewUser: false, user: { email: attackerAccount.email } });
    expect(String(own.headers['set-cookie'])).toMatch(/^vr_oauth_code=; Path=\/api\/auth\/process-auth-callback; Max-Age=0/);
    expect((await redeem(planted.code, planted.cookies)).statusCode).toBe(401);
  });
});
