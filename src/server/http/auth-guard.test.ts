import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken } from '../modules/auth/tokens.js';
import { signedInCompany } from '../test/accounts.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { VerifiedTokens } from './auth-guard.js';

describe('verified access tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('remembers a token until it expires, and at most a bounded number of tokens', () => {
    const tokens = new VerifiedTokens(2);
    tokens.remember('a', { userId: 'u', companyId: 'c', sessionId: 's', expiresAtMs: 1000 });
    expect(tokens.get('a', 999)).toEqual(expect.objectContaining({ companyId: 'c' }));
    expect(tokens.get('a', 1000)).toBeUndefined();
    tokens.remember('b', { userId: 'u', companyId: 'c', sessionId: 's', expiresAtMs: 5000 });
    tokens.remember('c', { userId: 'u', companyId: 'c', sessionId: 's', expiresAtMs: 5000 });
    tokens.remember('d', { userId: 'u', companyId: 'c', sessionId: 's', expiresAtMs: 5000 });
    expect(tokens.get('b', 0)).toBeUndefined();
    expect(tokens.get('d', 0)).toBeDefined();
  });

  it('makes the client refresh a token that names no session (signed before tokens named theirs)', async () => {
    const me = await signedInCompany(t);
    const unnamed = await new SignJWT({ cid: me.companyId, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(me.userId)
      .setAudience('vouchreel-api')
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(t.ctx.secrets.jwt));
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${unnamed}` } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ errorKey: 'sessionExpired' });
  });

  it('refuses a token that was accepted before, once it has expired', async () => {
    const me = await signedInCompany(t);
    // Issued so that it ends about a second and a half from now.
    const issued = Date.now() - ACCESS_TOKEN_TTL_SECONDS * 1000 + 1500;
    const token = await signAccessToken(t.ctx.secrets.jwt, { userId: me.userId, companyId: me.companyId, sessionId: me.sessionId }, issued);
    const call = () => t.app.inject({ method: 'GET', url: `/api/testimonials/requests?company_id=${me.companyId}`, headers: { authorization: `Bearer ${token}` } });
    expect((await call()).statusCode).toBe(200);
    expect((await call()).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const late = await call();
    expect(late.statusCode).toBe(401);
    expect(late.json()).toMatchObject({ errorKey: 'sessionExpired' });
  });
});
