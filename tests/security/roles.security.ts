/**
 * Every dashboard route against every role (issue 32, decision 215): the owner, an editor, a viewer, a
 * member of another company and a removed member. The route table of the server itself (with each
 * route's lowest role, http/route-roles.ts) drives it, so a route added later is covered without touching
 * this file, and a session route that declares no role fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type TRole } from '../../src/contract/api/members.schema.js';
import { ROUTE_ROLES } from '../../src/server/http/route-roles.js';
import { memberOf, signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';

type Company = Awaited<ReturnType<typeof signedInCompany>>;
type Member = Awaited<ReturnType<typeof memberOf>>;

const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
const SOME_ID = '00000000-0000-4000-8000-00000000abcd';

describe('roles on every session route', () => {
  let t: TestApp;
  let owner: Company;
  let editor: Member;
  let viewer: Member;
  let removed: Member;
  let outsider: Company;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInCompany(t);
    editor = await memberOf(t, owner, 'editor');
    viewer = await memberOf(t, owner, 'viewer');
    removed = await memberOf(t, owner, 'editor');
    outsider = await signedInCompany(t);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/members/${removed.userId}`, headers: owner.headers });
    expect(res.statusCode, res.body).toBe(204);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Routes that answer 401 without a token: the dashboard's session routes (and /api/v1, with keys). */
  async function sessionRoutes() {
    const found: { method: string; url: string; role?: TRole | undefined }[] = [];
    for (const route of t.app.routeTable) {
      if (route.method === 'OPTIONS' || route.url.startsWith('/api/v1/') || route.url === '/metrics') continue;
      const res = await call(route, {});
      if (res.statusCode === 401) found.push(route);
    }
    return found;
  }

  function call(route: { method: string; url: string }, headers: Record<string, string>, companyId = owner.companyId) {
    const url = route.url.replace(/:[A-Za-z]+/g, SOME_ID).replace('*', 'x');
    return t.app.inject({
      method: route.method as 'GET',
      url: `${url}${url.includes('?') ? '&' : '?'}company_id=${companyId}`,
      headers: { ...headers, ...(route.method === 'GET' ? {} : { 'content-type': 'application/json' }) },
      ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: '{}' }),
    });
  }

  const roleRefusal = (body: string) => /"reason":"role_required(_editor)?"/.test(body);

  it('every session route declares its lowest role, and every role declared names a registered route', async () => {
    const routes = await sessionRoutes();
    expect(routes.length).toBeGreaterThan(60);
    const undeclared = routes.filter((r) => !r.role).map(key);
    expect(undeclared, 'session routes without a role in src/server/http/route-roles.ts').toEqual([]);
    const registered = new Set(t.app.routeTable.map(key));
    for (const declared of ROUTE_ROLES.keys()) expect(registered.has(declared), declared).toBe(true);
  });

  it('lets each role reach exactly the routes of its rank, refusing the others with 403 and a reason the UI explains', async () => {
    const people: Record<TRole, Record<string, string>> = { owner: owner.headers, editor: editor.headers, viewer: viewer.headers };
    const routes = await sessionRoutes();
    for (const route of routes) {
      const lowest = route.role!;
      for (const role of ROLES) {
        const res = await call(route, people[role]);
        const label = `${key(route)} (lowest ${lowest}) as ${role}: ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode, label).not.toBe(401);
        const allowed = ROLES.indexOf(role) <= ROLES.indexOf(lowest);
        if (allowed) {
          expect(roleRefusal(res.body), label).toBe(false);
          expect(res.statusCode, label).toBeLessThan(500);
        } else {
          expect(res.statusCode, label).toBe(403);
          expect(res.json(), label).toMatchObject({ code: 'no_permission', reason: lowest === 'editor' ? 'role_required_editor' : 'role_required' });
        }
      }
    }
  });

  it("refuses a removed member on every session route at once, and their refresh gives no token", async () => {
    for (const route of await sessionRoutes()) {
      const res = await call(route, removed.headers);
      expect(res.statusCode, `${key(route)}: ${res.body}`).toBe(401);
      expect(res.json()).toMatchObject({ code: 'unauthorized', errorKey: 'sessionExpired' });
    }
    const refresh = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: removed.refreshToken } });
    expect(refresh.statusCode).toBe(401);
  });

  it("a member of another company reaches nothing of this one: naming it is refused, and switching into it is 404", async () => {
    const markers = [owner.email, editor.email, viewer.email, owner.userId, editor.userId];
    for (const route of await sessionRoutes()) {
      const res = await call(route, outsider.headers, owner.companyId);
      const label = `${key(route)}: ${res.statusCode} ${res.body.slice(0, 200)}`;
      expect(res.statusCode, label).not.toBe(401);
      for (const marker of markers) expect(res.body.includes(marker), `${label} leaks ${marker}`).toBe(false);
    }
    const members = (await outsider.get('/api/members')).json<{ members: { email: string }[] }>();
    expect(members.members.map((m) => m.email)).toEqual([outsider.email]);
    const sw = await outsider.post('/api/companies/switch', { companyId: owner.companyId });
    expect(sw.statusCode).toBe(404);
    // Nor may an owner change or remove members of another company.
    for (const res of [
      await outsider.put(`/api/members/${editor.userId}/role`, { role: 'owner' }),
      await t.app.inject({ method: 'DELETE', url: `/api/members/${viewer.userId}`, headers: outsider.headers }),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    const after = (await owner.get('/api/members')).json<{ members: { role: string }[] }>();
    expect(after.members.map((m) => m.role)).toEqual(['owner', 'editor', 'viewer']);
  });
});
