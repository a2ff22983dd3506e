import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, invitations, memberships, refreshTokenFamilies } from '../../db/schema.js';
import { signGoogleSignupToken } from '../auth/auth.service.js';
import { memberOf, signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { startSmtpCatcher } from '../../test/smtp-catcher.js';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  t = await createTestApp({ work: true, env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

type Account = Awaited<ReturnType<typeof signedInCompany>>;

const as = (token: string) => ({ authorization: `Bearer ${token}` });
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: as(token), ...(payload ? { payload } : {}) });

/** Invites `email` from `owner`'s company and returns the token of the link in the e-mail that arrives. */
async function invite(owner: Account, email: string, role: 'owner' | 'editor' | 'viewer', subject = /invites you/) {
  const before = smtp.mails.length;
  const res = await owner.post('/api/members/invitations', { email, role });
  expect(res.statusCode, res.body).toBe(201);
  const mail = await smtp.waitFor(email, subject);
  expect(smtp.mails.length).toBeGreaterThan(before);
  const link = [...smtp.mails].reverse().find((m) => m.to.includes(email.toLowerCase()))!.links.find((l) => l.includes('/invitation#token='))!;
  expect(mail.email.text).toContain('7');
  return { id: res.json<{ id: string }>().id, token: new URL(link).hash.replace('#token=', '') };
}

describe('invitations', () => {
  it('invites by e-mail in the company language; accepting by signing in adds the member with the role and answers a token for the company', async () => {
    const owner = await signedInCompany(t, { lang: 'fr' });
    const person = await signedInCompany(t);
    const { token } = await invite(owner, person.email.toUpperCase(), 'editor', /vous invite/);
    const mail = await smtp.waitFor(person.email, /vous invite/);
    expect(mail.email.text).toContain('éditeur');

    const listed = (await owner.get('/api/members')).json<{ members: { role: string }[]; invitations: { email: string; role: string }[] }>();
    expect(listed.members.map((m) => m.role)).toEqual(['owner']);
    expect(listed.invitations).toMatchObject([{ email: person.email.toLowerCase(), role: 'editor' }]);

    const preview = await t.app.inject({ method: 'GET', url: `/api/invitations/preview?token=${token}` });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ email: person.email.toLowerCase(), role: 'editor', accountExists: true });

    const accepted = await person.post('/api/invitations/accept', { token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const { token: access, companyId, role } = accepted.json<{ token: string; companyId: string; role: string }>();
    expect({ companyId, role }).toEqual({ companyId: owner.companyId, role: 'editor' });

    // The new token works in the owner's company with the editor's rights, not an owner's.
    const me = (await call('GET', '/api/auth/me', access)).json<{ user: { company_id: string }; role: string; companies: unknown[] }>();
    expect(me.user.company_id).toBe(owner.companyId);
    expect(me.role).toBe('editor');
    expect(me.companies).toHaveLength(2);
    expect((await call('POST', '/api/questions/add', access, { company_id: owner.companyId, text: 'Why us?', order_position: 1 })).statusCode).toBe(201);
    const members = await call('GET', '/api/members', access);
    expect(members.statusCode).toBe(403);
    expect(members.json()).toMatchObject({ code: 'no_permission', reason: 'role_required' });

    const after = (await owner.get('/api/members')).json<{ members: { email: string; role: string }[]; invitations: unknown[] }>();
    expect(after.members.map((m) => m.role)).toEqual(['owner', 'editor']);
    expect(after.invitations).toEqual([]);
    // Used once. (The session moved to the owner's company: the token for the person's own company is stale.)
    expect((await person.post('/api/invitations/accept', { token })).statusCode).toBe(401);
    const again = await call('POST', '/api/invitations/accept', access, { token });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ reason: 'invitation_used' });
  });

  it('accepts by signing up, with a password or with Google: no company is created, the account joins with the role and works there at once', async () => {
    const owner = await signedInCompany(t);
    const companiesBefore = await t.ctx.db.$count(companies);
    const email = `invited-${Date.now()}@agency.test`;
    const { token } = await invite(owner, email, 'viewer');
    expect((await t.app.inject({ method: 'GET', url: `/api/invitations/preview?token=${token}` })).json()).toMatchObject({ accountExists: false });
    const body = { firstname: 'Ines', lastname: 'Invited', password: 'secret12', lang: 'en', invitation: token };
    // Another e-mail than the invited one: refused, and nothing is created.
    const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { ...body, email: `other-${email}` } });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ reason: 'invitation_email_mismatch' });
    const signup = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { ...body, email } });
    expect(signup.statusCode, signup.body).toBe(201);
    const made = signup.json<{ token: string; user: { company_id: string; email_confirmed: boolean } }>();
    expect(made.user).toMatchObject({ company_id: owner.companyId, email_confirmed: true });
    expect(await t.ctx.db.$count(companies)).toBe(companiesBefore);
    const me = (await call('GET', '/api/auth/me', made.token)).json<{ role: string }>();
    expect(me.role).toBe('viewer');
    // The link is used.
    const twice = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { ...body, email: `x${email}` } });
    expect(twice.json()).toMatchObject({ reason: 'invitation_used' });

    // With Google: the address Google verified must be the invited one.
    const googleEmail = `google-${Date.now()}@agency.test`;
    const second = await invite(owner, googleEmail, 'editor');
    const claims = { sub: `sub-${Date.now()}`, email: googleEmail, email_verified: true, firstname: 'Gus', lastname: 'Google', picture: null };
    const accessToken = await signGoogleSignupToken(t.ctx, claims);
    const google = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { firstname: 'Gus', lastname: 'Google', email: googleEmail, lang: 'fr', fromGoogle: true, googleId: claims.sub, accessToken, invitation: second.token },
    });
    expect(google.statusCode, google.body).toBe(201);
    const viaGoogle = google.json<{ token: string; user: { company_id: string } }>();
    expect(viaGoogle.user.company_id).toBe(owner.companyId);
    expect((await call('GET', '/api/auth/me', viaGoogle.token)).json()).toMatchObject({ role: 'editor' });
    expect(await t.ctx.db.$count(companies)).toBe(companiesBefore);
  });

  it('refuses another e-mail, a cancelled, an expired or a replaced link, and an unknown one, each with its reason', async () => {
    const owner = await signedInCompany(t);
    const person = await signedInCompany(t);
    const stranger = await signedInCompany(t);

    const first = await invite(owner, person.email, 'viewer');
    const wrong = await stranger.post('/api/invitations/accept', { token: first.token });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'no_permission', reason: 'invitation_email_mismatch', params: { email: person.email } });
    // A second invitation to the same address while one waits: resend instead.
    const twice = await owner.post('/api/members/invitations', { email: person.email, role: 'editor' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ reason: 'invitation_pending' });

    // Resending gives a new link; the old one stops working.
    const resent = await owner.post(`/api/members/invitations/${first.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    const old = await person.post('/api/invitations/accept', { token: first.token });
    expect(old.statusCode).toBe(404);
    expect(old.json()).toMatchObject({ reason: 'invitation_invalid' });

    // Cancelled.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/members/invitations/${first.id}`, headers: owner.headers })).statusCode).toBe(204);
    const [row] = await t.ctx.db.select().from(invitations).where(eq(invitations.id, first.id));
    expect(row!.cancelledAt).not.toBeNull();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/members/invitations/${first.id}`, headers: owner.headers })).statusCode).toBe(404);

    // Expired after 7 days.
    const second = await invite(owner, stranger.email, 'viewer');
    const [made] = await t.ctx.db.select().from(invitations).where(eq(invitations.id, second.id));
    expect(made!.expiresAt.getTime() - made!.createdAt.getTime()).toBeGreaterThan(6.9 * 24 * 3_600_000);
    await t.ctx.db.update(invitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(invitations.id, second.id));
    const expired = await stranger.post('/api/invitations/accept', { token: second.token });
    expect(expired.statusCode).toBe(409);
    expect(expired.json()).toMatchObject({ reason: 'invitation_expired' });
    expect((await t.app.inject({ method: 'GET', url: `/api/invitations/preview?token=${second.token}` })).json()).toMatchObject({
      reason: 'invitation_expired',
    });
    const unknown = await t.app.inject({ method: 'GET', url: `/api/invitations/preview?token=${'x'.repeat(43)}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ reason: 'invitation_invalid' });
    // Nobody joined.
    expect(await t.ctx.db.$count(memberships, eq(memberships.companyId, owner.companyId))).toBe(1);
  });

  it("another company's invitations cannot be resent or cancelled, and an existing member cannot be invited", async () => {
    const owner = await signedInCompany(t);
    const other = await signedInCompany(t);
    const editor = await memberOf(t, owner, 'editor');
    const { id } = await invite(owner, `new-${Date.now()}@company.test`, 'viewer');
    expect((await other.post(`/api/members/invitations/${id}/resend`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/members/invitations/${id}`, headers: other.headers })).statusCode).toBe(404);
    const already = await owner.post('/api/members/invitations', { email: editor.email, role: 'viewer' });
    expect(already.statusCode).toBe(409);
    expect(already.json()).toMatchObject({ reason: 'already_member' });
    const bad = await owner.post('/api/members/invitations', { email: 'not an e-mail', role: 'boss' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('roles and members', () => {
  it('a company always keeps an owner: the last one can be neither demoted nor removed', async () => {
    const owner = await signedInCompany(t);
    const demote = await owner.put(`/api/members/${owner.userId}/role`, { role: 'editor' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toMatchObject({ code: 'conflict', reason: 'last_owner' });
    const remove = await t.app.inject({ method: 'DELETE', url: `/api/members/${owner.userId}`, headers: owner.headers });
    expect(remove.statusCode).toBe(409);

    // With a second owner, the first may step down; then the second is the last.
    const second = await memberOf(t, owner, 'owner');
    expect((await owner.put(`/api/members/${owner.userId}/role`, { role: 'editor' })).statusCode).toBe(204);
    expect((await second.put(`/api/members/${second.userId}/role`, { role: 'viewer' })).statusCode).toBe(409);
    // Both at once: exactly one of two simultaneous demotions of two owners can succeed (the other is
    // refused as the last owner, or, when it is checked after the first committed, as no longer an owner).
    const third = await memberOf(t, owner, 'owner');
    const results = await Promise.all([
      second.put(`/api/members/${third.userId}/role`, { role: 'viewer' }),
      third.put(`/api/members/${second.userId}/role`, { role: 'viewer' }),
    ]);
    expect(results.filter((r) => r.statusCode === 204)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode !== 204).map((r) => r.json<{ reason: string }>().reason)).toEqual([
      expect.stringMatching(/^(last_owner|role_required)$/),
    ]);
    const owners = await t.ctx.db.select().from(memberships).where(eq(memberships.companyId, owner.companyId));
    expect(owners.filter((m) => m.role === 'owner')).toHaveLength(1);
  });

  it('a change of role takes effect on the next call, and a removal ends the sessions and the refresh for that company at once', async () => {
    // The guard's session reads are cached (and must be dropped by the change's announcement).
    expect(t.ctx.reads.live).toBe(true);
    const owner = await signedInCompany(t);
    const editor = await memberOf(t, owner, 'editor');
    const question = { company_id: owner.companyId, text: 'What changed?', order_position: 1 };
    expect((await editor.post('/api/questions/add', question)).statusCode).toBe(201);

    expect((await owner.put(`/api/members/${editor.userId}/role`, { role: 'viewer' })).statusCode).toBe(204);
    const refused = await editor.post('/api/questions/add', question);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'no_permission', reason: 'role_required_editor' });
    expect((await editor.get(`/api/questions/list?company_id=${owner.companyId}`)).statusCode).toBe(200);

    expect((await t.app.inject({ method: 'DELETE', url: `/api/members/${editor.userId}`, headers: owner.headers })).statusCode).toBe(204);
    const gone = await editor.get(`/api/questions/list?company_id=${owner.companyId}`);
    expect(gone.statusCode).toBe(401);
    expect(gone.json()).toMatchObject({ errorKey: 'sessionExpired' });
    const refresh = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: editor.refreshToken } });
    expect(refresh.statusCode).toBe(401);
    const [family] = await t.ctx.db.select().from(refreshTokenFamilies).where(eq(refreshTokenFamilies.id, editor.sessionId));
    expect(family).toMatchObject({ revokedReason: 'removed' });
    // Their own company is untouched: signing in again lands there.
    const signin = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: editor.email, password: 'secret12' } });
    expect(signin.statusCode).toBe(200);
    expect(signin.json<{ user: { company_id: string } }>().user.company_id).toBe(editor.ownCompanyId);
    // Removing someone who is not a member: 404.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/members/${editor.userId}`, headers: owner.headers })).statusCode).toBe(404);
  });

  it('a viewer cannot spend a credit, and an editor manages neither members nor API keys nor billing', async () => {
    const owner = await signedInCompany(t);
    const viewer = await memberOf(t, owner, 'viewer');
    const editor = await memberOf(t, owner, 'editor');
    const pay = await viewer.post(`/api/testimonials/pay/${owner.userId}`);
    expect(pay.statusCode).toBe(403);
    expect(pay.json()).toMatchObject({ reason: 'role_required_editor' });
    for (const [method, url] of [
      ['GET', '/api/members'],
      ['POST', '/api/members/invitations'],
      ['GET', '/api/api-keys'],
      ['POST', '/api/api-keys'],
      ['POST', '/api/payment/checkout-session'],
      ['PUT', '/api/user/update-company'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: editor.headers, ...(method === 'GET' ? {} : { payload: {} }) });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    const list = (await owner.get('/api/members')).json<{ members: { role: string; you: boolean }[] }>();
    expect(list.members.map((m) => [m.role, m.you])).toEqual([
      ['owner', true],
      ['editor', false],
      ['viewer', false],
    ]);
  });
});

describe('agencies', () => {
  it('switches between my companies: a new token for each, the session keeps it through a refresh, and nothing of one shows under the other', async () => {
    const a = await signedInCompany(t);
    const b = await signedInCompany(t);
    const agent = await memberOf(t, a, 'editor');
    await t.ctx.db.insert(memberships).values({ companyId: b.companyId, userId: agent.userId, role: 'viewer' });
    await a.post('/api/questions/add', { company_id: a.companyId, text: 'Only in A?', order_position: 1 });

    const mine = (await agent.get('/api/companies/mine')).json<{ active: string; companies: { id: string; role: string }[] }>();
    expect(mine.active).toBe(a.companyId);
    expect(mine.companies.map((c) => c.id).sort()).toEqual([a.companyId, b.companyId, agent.ownCompanyId].sort());

    const inA = (await agent.get(`/api/questions/list?company_id=${a.companyId}`)).body;
    expect(inA).toContain('Only in A?');

    const switched = await agent.post('/api/companies/switch', { companyId: b.companyId });
    expect(switched.statusCode, switched.body).toBe(200);
    const toB = switched.json<{ token: string; role: string }>();
    expect(toB.role).toBe('viewer');
    // The token for A stops working; under B, A is neither visible nor named.
    expect((await agent.get(`/api/questions/list?company_id=${a.companyId}`)).statusCode).toBe(401);
    const inB = await call('GET', `/api/questions/list?company_id=${b.companyId}`, toB.token);
    expect(inB.statusCode).toBe(200);
    expect(inB.body).not.toContain('Only in A?');
    expect((await call('GET', `/api/questions/list?company_id=${a.companyId}`, toB.token)).statusCode).toBe(403);

    // A refresh keeps company B.
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: agent.refreshToken } });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const me = (await call('GET', '/api/auth/me', refreshed.json<{ token: string }>().token)).json<{ user: { company_id: string }; role: string }>();
    expect(me).toMatchObject({ user: { company_id: b.companyId }, role: 'viewer' });

    // Not a member: the same 404 whether the company exists or not.
    const stranger = await signedInCompany(t);
    for (const companyId of [stranger.companyId, '00000000-0000-4000-8000-000000000000']) {
      const res = await call('POST', '/api/companies/switch', toB.token, { companyId });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ reason: 'not_a_member' });
    }
  });
});
