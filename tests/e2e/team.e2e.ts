import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, setLanguage, watchErrors, type BrowserSession } from './support/browser.js';
import { recordTestimonial, signInInBrowser, signUpCompany, waitForMailLink, type Company, type RecordedTestimonial } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * Teams (issue 32, decision 218), in Chromium against the built app: an owner invites an editor from
 * Settings › Team; the editor opens the e-mailed link, creates an account through the invitation
 * (no company step, the address fixed), lands in the owner's company and publishes an answer there.
 * The owner then sees the editor among the members. Screenshots of the Team tab and of the invitation
 * page at 375 and 1280 px, in English and French (test-results/team-*.png, invitation-*.png).
 */

interface DetailResponse {
  testimonial: { testimonial_responses: { id: string; poster_url?: string | null }[] } | null;
}

/** The answer plays (and can be published) once its transcode job has run. */
async function transcoded(company: Company, id: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const detail = await company.api<DetailResponse>('GET', `/api/testimonials/request/${id}?company_id=${company.companyId}`);
    if (detail.testimonial?.testimonial_responses.every((a) => a.poster_url)) return;
    if (Date.now() > deadline) throw new Error('the answer was not transcoded within 90 s');
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Screenshots of the current page at 375 and 1280 px, in English then French (back to English after). */
async function shots(page: Page, server: RunningServer, browser: BrowserSession, name: string, ready: string): Promise<void> {
  for (const lang of ['en', 'fr'] as const) {
    await setLanguage(page, server, browser, lang);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.waitForSelector(ready);
      await screenshot(page, `${name}-${lang}-${width}`);
    }
  }
  await setLanguage(page, server, browser, 'en');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForSelector(ready);
}

describe('a team: an owner invites an editor, who joins and publishes', () => {
  let server: RunningServer;
  let ownerBrowser: BrowserSession;
  let editorBrowser: BrowserSession;
  let owner: Company;
  let recorded: Promise<RecordedTestimonial>;

  beforeAll(async () => {
    server = await startServer();
    [ownerBrowser, editorBrowser] = await Promise.all([openBrowser({ locale: 'en-US' }), openBrowser({ locale: 'en-US' })]);
    owner = await signUpCompany(server, { prefix: 'team' });
    await owner.api('PUT', '/api/user/complete-onboarding', {});
    // A paid, transcoded answer for the editor to publish, prepared while the invitation goes round.
    recorded = (async () => {
      const testimonial = await recordTestimonial(server, owner, { customerName: 'Claire Dubois', clips: [{ seconds: 3, tone: 440 }] });
      await owner.api('POST', `/api/testimonials/pay/${testimonial.id}`, {});
      await transcoded(owner, testimonial.id);
      return testimonial;
    })();
    recorded.catch(() => undefined);
  }, 120_000);

  afterAll(async () => {
    await ownerBrowser?.close();
    await editorBrowser?.close();
    await server?.stop();
  });

  it('invites from Settings › Team; the editor signs up by the link, lands in the company and publishes', { timeout: 180_000 }, async () => {
    const editorEmail = `editor.${Date.now()}@studio.test`;

    // The owner invites an editor.
    const ownerPage = await ownerBrowser.context.newPage();
    const ownerErrors = watchErrors(ownerPage);
    await ownerPage.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(ownerPage, server, owner);
    await ownerPage.goto(`${server.url}/dashboard/settings`);
    await ownerPage.click('[data-testid="settings-tab-team"]');
    await ownerPage.waitForURL(`${server.url}/dashboard/settings?tab=team`);
    const invite = ownerPage.locator('[data-testid="team-invite"]');
    await invite.locator('[data-testid="team-invite-email"]').fill('not an address');
    await invite.locator('[data-testid="team-invite-submit"]').click();
    await invite.getByText('Enter a valid e-mail address, like name@company.com.').waitFor();
    await invite.locator('[data-testid="team-invite-email"]').fill(editorEmail);
    await invite.locator('[data-testid="team-invite-role"]').selectOption('editor');
    await invite.locator('[data-testid="team-invite-submit"]').click();
    const pending = ownerPage.locator('[data-testid="team-invitations"] li', { hasText: editorEmail });
    await pending.waitFor();
    expect(await pending.innerText()).toContain('Editor');
    // The only owner cannot demote themself: the server's reason shows.
    const me = ownerPage.locator('[data-testid="team-members"] [data-role="owner"]');
    await me.locator('select').selectOption('viewer');
    expect(await ownerPage.locator('[data-testid="team-members-alert"]').innerText()).toContain('A company always keeps at least one owner');

    // The e-mail's link, opened by the editor (another browser, nobody signed in).
    const link = await waitForMailLink(server, editorEmail, '/invitation#token=');
    expect(link.startsWith(`${server.url}/invitation#token=`)).toBe(true);
    const page = await editorBrowser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(link);
    await page.waitForSelector('[data-testid="invitation-details"]');
    expect(await page.innerText('h1')).toBe(`Join ${owner.companyName}`);
    expect(await page.innerText('[data-testid="invitation-details"]')).toContain(editorEmail);
    await shots(page, server, editorBrowser, 'invitation', '[data-testid="invitation-signup"]');

    // Sign-up through the invitation: about you, then the password; no company step.
    await page.click('[data-testid="invitation-signup"]');
    await page.waitForURL(`${server.url}/signup`);
    expect(await page.innerText('[data-testid="signup-invitation"]')).toContain(`You are joining ${owner.companyName} as an editor.`);
    expect(await page.inputValue('input[name="email"]')).toBe(editorEmail);
    expect(await page.isDisabled('input[name="email"]')).toBe(true);
    await page.fill('input[name="firstname"]', 'Eddie');
    await page.fill('input[name="lastname"]', 'Editor');
    await page.click('[data-testid="signup-next"]');
    await page.waitForSelector('[data-testid="signup-step"][data-step="3"]');
    await page.fill('input[name="password"]', 'secret12');
    await page.fill('input[name="confirmPassword"]', 'secret12');
    await page.click('[data-testid="signup-submit"]');
    await page.waitForURL(`${server.url}/dashboard`);
    // A new person gets the tour; they skip it.
    await page.click('[data-testid="tour-skip"]', { timeout: 10_000 });

    // In the owner's company, as an editor.
    const session = await page.evaluate(async () => {
      const token = sessionStorage.getItem('token') ?? localStorage.getItem('token');
      const res = await fetch('/api/auth/me', { headers: { authorization: `Bearer ${token}` } });
      return (await res.json()) as { user: { company_id: string }; role: string };
    });
    expect(session.user.company_id).toBe(owner.companyId);
    expect(session.role).toBe('editor');

    // The editor publishes an answer of the owner's testimonial.
    const testimonial = await recorded;
    await page.goto(`${server.url}/dashboard/testimonials/${testimonial.id}`);
    const publish = page.locator('[data-testid="response-card"] [data-testid="action-publish"]');
    await publish.waitFor({ timeout: 20_000 });
    expect(await publish.getAttribute('data-published')).toBe('false');
    await publish.click();
    const shareLink = page.locator('[data-testid="publish-dialog"] [data-testid="publish-link"]');
    await shareLink.waitFor({ timeout: 15_000 });
    expect(await shareLink.inputValue()).toMatch(/\/v\/[A-Za-z0-9_-]{22}$/);
    const { publications } = await owner.api<{ publications: unknown[] }>('GET', '/api/publications');
    expect(publications).toHaveLength(1);

    // The owner sees the editor as a member, and no invitation waiting.
    await ownerPage.reload();
    const editorRow = ownerPage.locator('[data-testid="team-members"] [data-role="editor"]');
    await editorRow.waitFor();
    expect(await editorRow.innerText()).toContain(editorEmail);
    await ownerPage.waitForSelector('[data-testid="team-invitations-empty"]');
    await shots(ownerPage, server, ownerBrowser, 'team', '[data-testid="team-members"]');

    expect(errors).toEqual([]);
    expect(ownerErrors.filter((e) => !e.includes('409'))).toEqual([]);
  });
});
