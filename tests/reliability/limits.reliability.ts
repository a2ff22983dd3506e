import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAIR_FREE_FAILURES } from '../../src/server/modules/auth/signin-throttle.js';
import { cleanUp, scratchDatabase, signUpCompany, startServer, type Company, type ScratchDatabase, type ServerProcess } from './support.js';

/** The sign-in limit per address (auth.routes.ts): attempts in ten minutes, whatever the e-mail. */
const SIGNIN_PER_ADDRESS = 30;

/**
 * Limits that hold across processes (issue 28, decision 178): two API processes on one PostgreSQL
 * database, behind a proxy that names the client (X-Forwarded-For), as a load balancer spreads one
 * client's calls over them. One address gets as many sign-in attempts in total from both as from one.
 */
describe('limits shared by two API processes', () => {
  let scratch: ScratchDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  let owner: Company;
  const procs: ServerProcess[] = [];

  beforeAll(async () => {
    scratch = await scratchDatabase();
    // Both trust the proxy on loopback: the client's address is the one X-Forwarded-For names.
    const env = { TRUST_PROXY: '127.0.0.1' };
    a = await startServer({ role: 'api', databaseUrl: scratch.url, env });
    b = await startServer({ role: 'api', databaseUrl: scratch.url, env });
    procs.push(a, b);
    owner = await signUpCompany(a, scratch.db);
  });
  afterAll(async () => {
    await cleanUp(procs);
    await scratch?.drop();
  });

  const signin = async (api: ServerProcess, from: string, email: string, password: string) =>
    (
      await fetch(`${api.url}/api/auth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
        body: JSON.stringify({ email, password }),
      })
    ).status;

  /** Sign-in attempts from one address, each to the process `route` picks; the statuses in order. */
  async function attempts(count: number, route: (i: number) => ServerProcess, from: string, email: (i: number) => string) {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) statuses.push(await signin(route(i), from, email(i), `guess-${i}`));
    return statuses;
  }
  const tally = (statuses: number[]) => ({ judged: statuses.filter((s) => s === 401).length, refused: statuses.filter((s) => s === 429).length });

  it('gives one address the same number of sign-in attempts against two processes as against one', async () => {
    const stranger = (i: number) => `nobody-${i}@reliability.test`;
    const alone = tally(await attempts(SIGNIN_PER_ADDRESS + 10, () => a, '198.51.100.1', stranger));
    const spread = tally(await attempts(SIGNIN_PER_ADDRESS + 10, (i) => (i % 2 ? b : a), '198.51.100.2', stranger));
    expect(alone).toEqual({ judged: SIGNIN_PER_ADDRESS, refused: 10 });
    // In memory, each process would have allowed its own 30: 40 judged, none refused.
    expect(spread).toEqual(alone);
    // Each process refuses the address now, whichever it asks.
    for (const api of [a, b]) expect(await signin(api, '198.51.100.2', stranger(99), 'guess')).toBe(429);
    // Another address is not affected.
    expect(await signin(b, '198.51.100.3', stranger(100), 'guess')).toBe(401);
  });

  it("gives one address the same free guesses at an account's password against two processes as against one", async () => {
    const alone = tally(await attempts(12, () => a, '198.51.100.10', () => owner.email));
    const spread = tally(await attempts(12, (i) => (i % 2 ? b : a), '198.51.100.11', () => owner.email));
    expect(alone).toEqual({ judged: PAIR_FREE_FAILURES, refused: 12 - PAIR_FREE_FAILURES });
    expect(spread).toEqual(alone);
    // A parallel burst over both processes gets no more.
    const burst = await Promise.all(Array.from({ length: 16 }, (_, i) => signin(i % 2 ? b : a, '198.51.100.12', owner.email, `burst-${i}`)));
    expect(tally(burst)).toEqual({ judged: PAIR_FREE_FAILURES, refused: 16 - PAIR_FREE_FAILURES });
    // The owner, from their own address, signs in through either process.
    expect(await signin(b, '198.51.100.13', owner.email, 'secret12')).toBe(200);
    expect(await signin(a, '198.51.100.14', owner.email, 'secret12')).toBe(200);
    // The counters are rows of the shared table, not of either process.
    const { rows } = await scratch.db.query<{ n: number }>("select count(*)::int as n from rate_limits where key like 'signin-pair:%'");
    expect(rows[0]!.n).toBeGreaterThanOrEqual(3);
  });
});
