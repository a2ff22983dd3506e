import { eq } from 'drizzle-orm';
import { memberships, users } from '../db/schema.js';
import { signin, signup } from '../modules/auth/auth.service.js';
import { verifyAccessToken } from '../modules/auth/tokens.js';
import type { TestApp } from './harness.js';

let n = 0;

/** A confirmed, signed-in company user made through the real sign-up and sign-in services. */
export async function signedInCompany(t: TestApp, over: { companyName?: string; lang?: 'en' | 'fr' } = {}) {
  n += 1;
  const suffix = `${process.pid}-${n}-${Math.random().toString(36).slice(2, 6)}`;
  const email = `owner-${suffix}@company.test`;
  await signup(t.ctx, {
    firstname: 'Owner',
    lastname: `N${n}`,
    email,
    companyName: over.companyName ?? `Company ${suffix}`,
    password: 'secret12',
    lang: over.lang ?? 'en',
  });
  await t.ctx.db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.email, email));
  const session = await signin(t.ctx, { email, password: 'secret12' });
  const companyId = session.user.company_id!;
  const headers = { authorization: `Bearer ${session.token}` };
  const verified = await verifyAccessToken(t.ctx.secrets.jwt, session.token);
  if (!verified.ok) throw new Error('the new session token does not verify');
  return {
    email,
    companyId,
    userId: session.user.id,
    /** The session (refresh-token family) this sign-in opened, named by its access token. */
    sessionId: verified.claims.sessionId,
    refreshToken: session.refreshToken,
    headers,
    get: (url: string) => t.app.inject({ method: 'GET', url, headers }),
    post: (url: string, payload?: object) => t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) }),
    put: (url: string, payload?: object) => t.app.inject({ method: 'PUT', url, headers, ...(payload ? { payload } : {}) }),
  };
}

/**
 * Another person who is a member of `company` with `role` (issue 32), working in it: their own account
 * (with their own company), the membership added directly, then the real switch call for a token of
 * `company`. The invitation flow itself is tested through HTTP in modules/members/members.test.ts.
 */
export async function memberOf(t: TestApp, company: { companyId: string }, role: 'owner' | 'editor' | 'viewer') {
  const person = await signedInCompany(t);
  await t.ctx.db.insert(memberships).values({ companyId: company.companyId, userId: person.userId, role });
  const switched = await person.post('/api/companies/switch', { companyId: company.companyId });
  if (switched.statusCode !== 200) throw new Error(`switch failed: ${switched.body}`);
  const token = switched.json<{ token: string }>().token;
  const headers = { authorization: `Bearer ${token}` };
  return {
    ...person,
    /** Their own company, where they are the owner. */
    ownCompanyId: person.companyId,
    companyId: company.companyId,
    token,
    headers,
    get: (url: string) => t.app.inject({ method: 'GET', url, headers }),
    post: (url: string, payload?: object) => t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) }),
    put: (url: string, payload?: object) => t.app.inject({ method: 'PUT', url, headers, ...(payload ? { payload } : {}) }),
    delete: (url: string) => t.app.inject({ method: 'DELETE', url, headers }),
  };
}
