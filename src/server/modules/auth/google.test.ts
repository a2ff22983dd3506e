import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { followRedirects, startOidcStandIn, type StandInAccount } from '../../test/oidc-stand-in.js';

/** The whole Google flow against a real OpenID Connect provider on loopback configured as GOOGLE_ISSUER. */
describe('Google sign-in', () => {
  let t: TestApp;
  let idp: Awaited<ReturnType<typeof startOidcStandIn>>;
  let n = 0;

  beforeAll(async () => {
    idp = await startOidcStandIn({
      clientId: 'vouchreel-test',
      clientSecret: 'stand-in-secret',
      redirectUris: ['http://app.test/api/auth/google/callback'],
    });
    t = await createTestApp({
      env: { GOOGLE_ISSUER: idp.issuer, GOOGLE_CLIENT_ID: 'vouchreel-test', GOOGLE_CLIENT_SECRET: 'stand-in-secret' },
    });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  const ip = () => `10.9.0.${++n}`;

  /**
   * Drives the browser's part: our start call, the provider, back to our callback; returns the one-time
   * code and the browser's redemption cookie.
   */
  async function googleRound(account: StandInAccount): Promise<{ code: string; cookie: string }> {
    idp.signInAs(account);
    const start = await t.app.inject({ method: 'POST', url: '/api/auth/signin-google', payload: { provider: 'google' }, remoteAddress: ip() });
    expect(start.statusCode, start.body).toBe(200);
    const { url } = start.json() as { url: string };
    const authorize = new URL(url);
    expect(authorize.origin).toBe(idp.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    const cookie = String(start.headers['set-cookie']).split(';')[0]!;
    expect(String(start.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Lax/);

    const back = await followRedirects(url, (u) => u.startsWith('http://app.test/'));
    const callback = await t.app.inject({ method: 'GET', url: back.replace('http://app.test', ''), headers: { cookie }, remoteAddress: ip() });
    expect(callback.statusCode).toBe(303);
    const location = String(callback.headers.location);
    expect(location).toMatch(/^http:\/\/app\.test\/auth\/callback#access_token=/);
    const bound = [callback.headers['set-cookie']].flat().map(String).find((c) => c.startsWith('vr_oauth_code='));
    expect(bound).toMatch(/; Path=\/api\/auth\/process-auth-callback; Max-Age=300; HttpOnly; SameSite=Lax/);
    return { code: new URLSearchParams(new URL(location).hash.slice(1)).get('access_token')!, cookie: bound!.split(';')[0]! };
  }

  const processCallback = ({ code, cookie }: { code: string; cookie: string }, authAction = 'signin') =>
    t.app.inject({ method: 'POST', url: '/api/auth/process-auth-callback', payload: { accessToken: code, authAction }, headers: { cookie }, remoteAddress: ip() });

  it('signs up a new Google user: profile and sign-up token, then the company step opens a session', async () => {
    const code = await googleRound({ sub: 'g-new-1', email: 'Chloe@Gmail.test', email_verified: true, given_name: 'Chloé', family_name: 'Durand', picture: 'https://example.test/c.png' });
    const res = await processCallback(code, 'signup');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ isNewUser: true, user: { sub: 'g-new-1', email: 'Chloe@Gmail.test', firstname: 'Chloé', lastname: 'Durand', picture: 'https://example.test/c.png' } });

    // The one-time code works once.
    expect((await processCallback(code)).json()).toMatchObject({ errorKey: 'tokenExpired' });

    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      remoteAddress: ip(),
      payload: { firstname: 'Chloé', lastname: 'Durand', email: 'chloe@gmail.test', companyName: 'Studio Chloé', lang: 'fr', fromGoogle: true, googleId: 'g-new-1', picture: 'https://example.test/c.png', accessToken: body.token },
    });
    expect(signup.statusCode, signup.body).toBe(201);
    expect(signup.json()).toMatchObject({ token: expect.any(String), refreshToken: expect.any(String), user: { email: 'Chloe@Gmail.test', email_confirmed: true, avatar_url: 'https://example.test/c.png' } });

    // Next time the same Google account signs straight in.
    const again = await processCallback(await googleRound({ sub: 'g-new-1', email: 'chloe@gmail.test', email_verified: true, given_name: 'Chloé', family_name: 'Durand' }));
    expect(again.json()).toMatchObject({ isNewUser: false, user: { email: 'Chloe@Gmail.test', company: { name: 'Studio Chloé' } }, token: expect.any(String), refreshToken: expect.any(String) });
  });

  it('refuses a Google sign-up whose token is forged or whose Google id does not match', async () => {
    const payload = { firstname: 'X', lastname: 'Y', email: 'x@y.test', companyName: 'Forged Co', lang: 'en', fromGoogle: true, googleId: 'g-x', accessToken: 'not-a-token' };
    const forged = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload, remoteAddress: ip() });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().errorKey).toBe('tokenExpired');

    const code = await googleRound({ sub: 'g-real', email: 'real@gmail.test', email_verified: true, given_name: 'R', family_name: 'L' });
    const { token } = (await processCallback(code)).json();
    const mismatch = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { ...payload, googleId: 'g-other', accessToken: token }, remoteAddress: ip() });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errorKey).toBe('invalidRequest');
  });

  it('links an existing password account when its e-mail was confirmed and Google verified it', async () => {
    const email = 'marc@garage.test';
    const signup = await t.app.inject({ method: 'POST', url: '/api/auth/signup', remoteAddress: ip(), payload: { firstname: 'Marc', lastname: 'L', email, companyName: 'Garage Marc', password: 'secret12', lang: 'en' } });
    expect(signup.statusCode).toBe(201);
    await t.ctx.db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.email, email));
    const res = await processCallback(await googleRound({ sub: 'g-marc', email: 'MARC@garage.test', email_verified: true, given_name: 'Marc', family_name: 'L' }));
    expect(res.json()).toMatchObject({ isNewUser: false, user: { email, email_confirmed: true, company: { name: 'Garage Marc' } } });
    const [row] = await t.ctx.db.select().from(users).where(eq(users.email, email));
    expect(row?.googleSub).toBe('g-marc');
    expect(row?.passwordHash).toBeTruthy();
  });

  it('replaces an unconfirmed account instead of linking it: the Google user signs up afresh', async () => {
    const email = 'lea@florist.test';
    const signup = await t.app.inject({ method: 'POST', url: '/api/auth/signup', remoteAddress: ip(), payload: { firstname: 'Someone', lastname: 'Else', email, companyName: 'Florist Taken', password: 'secret12', lang: 'en' } });
    expect(signup.statusCode).toBe(201);
    const res = await processCallback(await googleRound({ sub: 'g-lea', email, email_verified: true, given_name: 'Léa', family_name: 'F' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ isNewUser: true, user: { sub: 'g-lea', email } });
    // The unconfirmed account and its company are gone; the company name is free again.
    expect(await t.ctx.db.select().from(users).where(eq(users.email, email))).toEqual([]);
    const payload = { firstname: 'Léa', lastname: 'F', email, companyName: 'Florist Taken', lang: 'en', fromGoogle: true, googleId: 'g-lea', accessToken: res.json().token };
    const done = await t.app.inject({ method: 'POST', url: '/api/auth/signup', remoteAddress: ip(), payload });
    expect(done.statusCode, done.body).toBe(201);
    expect(done.json()).toMatchObject({ user: { email, email_confirmed: true, company: { name: 'Florist Taken' } } });
  });

  it('refuses to link when Google has not verified the e-mail (provider conflict)', async () => {
    const email = 'ines@bakery.test';
    await t.app.inject({ method: 'POST', url: '/api/auth/signup', remoteAddress: ip(), payload: { firstname: 'Inès', lastname: 'B', email, companyName: 'Bakery Inès', password: 'secret12', lang: 'fr' } });
    const res = await processCallback(await googleRound({ sub: 'g-ines', email, email_verified: false, given_name: 'Inès', family_name: 'B' }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ errorKey: 'providerConflict' });
    const [row] = await t.ctx.db.select().from(users).where(eq(users.email, email));
    expect(row?.googleSub).toBeNull();
  });

  it('sends the browser back with an error when the state cookie is missing', async () => {
    idp.signInAs({ sub: 'g-late', email: 'late@gmail.test', email_verified: true, given_name: 'L', family_name: 'T' });
    const start = await t.app.inject({ method: 'POST', url: '/api/auth/signin-google', payload: { provider: 'google' }, remoteAddress: ip() });
    const back = await followRedirects(start.json().url, (u) => u.startsWith('http://app.test/'));
    const callback = await t.app.inject({ method: 'GET', url: back.replace('http://app.test', ''), remoteAddress: ip() });
    expect(callback.statusCode).toBe(303);
    expect(String(callback.headers.location)).toMatch(/^http:\/\/app\.test\/auth\/callback#error=sessionExpired/);
  });

  it('reports Google as enabled in the public configuration', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/public/app-config' });
    expect(res.json()).toMatchObject({ googleEnabled: true, brandName: 'Vouchreel' });
  });
});

describe('without Google configuration', () => {
  it('hides Google (app-config) and refuses to start a Google sign-in', async () => {
    const t = await createTestApp();
    try {
      expect((await t.app.inject({ method: 'GET', url: '/api/public/app-config' })).json()).toMatchObject({ googleEnabled: false });
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/signin-google', payload: { provider: 'google' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ errorKey: 'invalidRequest' });
    } finally {
      await t.close();
    }
  });
});
