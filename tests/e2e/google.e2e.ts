import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followRedirects, startOidcStandIn } from '../../src/server/test/oidc-stand-in.js';
import { openBrowser, screenshot, watchErrors, type BrowserSession } from './support/browser.js';
import { freePort, startServer, type RunningServer } from './support/server.js';

/**
 * Google sign-up in Chromium against a real OpenID Connect provider on loopback configured as
 * GOOGLE_ISSUER: Google button → provider → /auth/callback → sign-up at the company step → dashboard.
 */
describe('Google sign-in', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let idp: Awaited<ReturnType<typeof startOidcStandIn>>;

  beforeAll(async () => {
    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    idp = await startOidcStandIn({ clientId: 'vouchreel-e2e', clientSecret: 'e2e-secret', redirectUris: [`${appUrl}/api/auth/google/callback`] });
    server = await startServer({ GOOGLE_ISSUER: idp.issuer, GOOGLE_CLIENT_ID: 'vouchreel-e2e', GOOGLE_CLIENT_SECRET: 'e2e-secret' }, { port });
    browser = await openBrowser({ locale: 'en-US' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await idp?.close();
  });

  it('signs up a new Google user through the company step, then signs them straight in next time', async () => {
    idp.signInAs({ sub: 'google-e2e-1', email: 'noemie@gmail.test', email_verified: true, given_name: 'Noémie', family_name: 'Laurent' });
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${server.url}/signup`);
    await page.click('[data-testid="google-button"]');

    // Back from the provider: a new user lands on the company step, with Google's names locked.
    await page.waitForURL(/\/signup/, { timeout: 30_000 });
    await page.waitForSelector('[data-testid="signup-step"][data-step="2"]');
    expect(await page.getAttribute('[data-testid="signup-step"]', 'data-from-google')).toBe('true');
    await page.fill('input[name="companyName"]', 'Atelier Noémie');
    await page.click('[data-testid="signup-next"]');
    await page.waitForSelector('[data-testid="signup-step"][data-step="3"]');
    expect(await page.textContent('[data-testid="google-email"]')).toContain('noemie@gmail.test');
    await screenshot(page, 'google-signup-step3');
    await page.click('[data-testid="signup-submit"]');
    await page.waitForURL(`${server.url}/dashboard`, { timeout: 30_000 });
    await page.waitForSelector('[data-testid="user-menu"]');
    expect(await page.textContent('[data-testid="user-menu"]')).toContain('Noémie');

    // Sign out, then sign in with Google again: an existing user goes straight to the dashboard.
    await page.click('[data-testid="user-menu"]');
    await page.click('[data-testid="sign-out"]');
    await page.waitForURL(`${server.url}/`);
    await page.goto(`${server.url}/signin`);
    await page.click('[data-testid="google-button"]');
    await page.waitForURL(`${server.url}/dashboard`, { timeout: 30_000 });
    await page.waitForSelector('[data-testid="user-menu"]');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('explains a provider conflict when Google has not verified an e-mail that has an account', async () => {
    const email = 'paul@bakery.test';
    const signup = await fetch(`${server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ firstname: 'Paul', lastname: 'B', email, companyName: 'Bakery Paul', password: 'secret12', lang: 'en' }),
    });
    expect(signup.status).toBe(201);
    idp.signInAs({ sub: 'google-e2e-2', email, email_verified: false, given_name: 'Paul', family_name: 'B' });
    const page = await browser.context.newPage();
    // The previous test left signed-in sessions in this profile (ours and the provider's): start afresh.
    await browser.context.clearCookies();
    await page.goto(server.url);
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await page.goto(`${server.url}/signin`);
    await page.click('[data-testid="google-button"]');
    await page.waitForSelector('[data-testid="callback-error"]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid="callback-error"]')).toMatch(/already linked to another sign-in method/);
    await screenshot(page, 'google-provider-conflict');
    await page.close();
  });

  it('refuses a one-time code planted from another browser (login CSRF)', async () => {
    // The attacker completes a Google sign-in outside this browser and keeps the address with the code.
    idp.signInAs({ sub: 'google-e2e-attacker', email: 'mallory@gmail.test', email_verified: true, given_name: 'Mallory', family_name: 'M' });
    const start = await fetch(`${server.url}/api/auth/signin-google`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'google' }),
    });
    const stateCookie = (start.headers.get('set-cookie') ?? '').split(';')[0]!;
    const back = await followRedirects(((await start.json()) as { url: string }).url, (u) => u.startsWith(`${server.url}/`));
    const callback = await fetch(back, { redirect: 'manual', headers: { cookie: stateCookie } });
    const planted = callback.headers.get('location') ?? '';
    expect(planted).toContain('/auth/callback#access_token=');

    // The victim's browser follows that address: no session, an error instead.
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    await page.goto(server.url);
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await page.goto(planted);
    await page.waitForSelector('[data-testid="callback-error"]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid="callback-error"]')).toMatch(/sign in again/i);
    expect(page.url()).not.toContain('/dashboard');
    expect(await page.evaluate(() => localStorage.getItem('token') ?? sessionStorage.getItem('token'))).toBeNull();
    await page.close();
  });
});
