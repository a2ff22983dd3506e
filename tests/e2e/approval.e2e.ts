import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, setLanguage, watchErrors, type BrowserSession } from './support/browser.js';
import { recordTestimonial, signInInBrowser, signUpCompany, type Company, type RecordedTestimonial } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * The customer approves the final cut (issue 29), in Chromium against the built app with real workers
 * and the real outbox: the company switches approval on in Settings; on the detail page Publish is
 * refused with the translated reason; the company asks for approval, the customer opens the e-mailed
 * /approve link and asks for changes with a comment, which appears on the detail page (and Publish is
 * still refused); asked again, the customer approves through the new link, and Publish works. Screenshots
 * of the settings switch, the approval panel and the consent record at 375 and 1280 px, in English and
 * French, go to SHOTS_DIR.
 */

const SHOTS_DIR = process.env.APPROVAL_SHOTS_DIR ?? '/tmp/shots-approval';
const COMMENT = 'Please cut the first sentence, and keep the part about the delivery.';

interface DetailResponse {
  testimonial: { testimonial_responses: { id: string; media?: { phase: string } | null }[] } | null;
}

interface OutboxMessage {
  links: string[];
}

async function shot(target: Page | Locator, name: string, fullPage = false): Promise<void> {
  await mkdir(SHOTS_DIR, { recursive: true });
  const page = 'page' in target ? target.page() : target;
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5000 }).catch(() => undefined);
  const file = path.join(SHOTS_DIR, `${name}.png`);
  if ('page' in target) await target.screenshot({ path: file });
  else await target.screenshot({ path: file, fullPage });
}


/** Every /approve/ link e-mailed to `to`, waiting until there are `count` of them. */
async function approvalLinks(server: RunningServer, to: string, count: number): Promise<string[]> {
  for (let i = 0; i < 120; i++) {
    const res = await fetch(`${server.url}/dev/outbox/messages.json?to=${encodeURIComponent(to)}`);
    const links = [...new Set(((await res.json()) as OutboxMessage[]).flatMap((m) => m.links).filter((l) => l.includes('/approve/')))];
    if (links.length >= count) return links;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`fewer than ${count} approval e-mails to ${to}`);
}

describe('approval of the final cut', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let company: Company;
  let recorded: RecordedTestimonial;

  beforeAll(async () => {
    server = await startServer();
    browser = await openBrowser({ locale: 'en-US' });
    company = await signUpCompany(server, { prefix: 'approval' });
    await company.api('PUT', '/api/user/complete-onboarding', {});
    recorded = await recordTestimonial(server, company, { customerName: 'Claire Dubois', clips: [{ seconds: 3, tone: 440 }] });
    await company.api('POST', `/api/testimonials/pay/${recorded.id}`, {});
    const deadline = Date.now() + 90_000;
    for (;;) {
      const detail = await company.api<DetailResponse>('GET', `/api/testimonials/request/${recorded.id}?company_id=${company.companyId}`);
      // The answer plays (and can be published) once its transcode job has run.
      if (detail.testimonial?.testimonial_responses.every((a) => a.media?.phase === 'ready')) break;
      if (Date.now() > deadline) throw new Error('the answer was not transcoded within 90 s');
      await new Promise((r) => setTimeout(r, 500));
    }
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('refuses Publish until the customer approves through the e-mailed link; their changes appear on the detail page', { timeout: 180_000 }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);

    // The company setting: off by default, switched on.
    await page.goto(`${server.url}/dashboard/settings`);
    const setting = page.locator('[data-testid="approval-setting"]');
    await setting.waitFor();
    expect(await setting.getAttribute('aria-checked')).toBe('false');
    await setting.click();
    await expect.poll(() => setting.getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => setting.isEnabled()).toBe(true);
    expect((await company.api<{ user: { company: { approval_required?: boolean } } }>('GET', '/api/user/profile')).user.company.approval_required).toBe(true);
    await setting.scrollIntoViewIfNeeded();
    await shot(page, 'settings-approval-en-1280');

    // The detail page: the switch follows the company; Publish is refused with the translated reason.
    await page.goto(`${server.url}/dashboard/testimonials/${recorded.id}`);
    const panel = page.locator('[data-testid="approval-panel"]');
    expect(await panel.locator('[data-testid="approval-switch"]').getAttribute('aria-checked')).toBe('true');
    const card = page.locator('[data-testid="response-card"]');
    const ask = card.locator('[data-testid="ask-approval"]');
    await ask.waitFor();
    expect(await card.locator('[data-testid="approval-gate-note"]').getAttribute('data-gate')).toBe('ask');
    await shot(card, 'approval-ask-en-1280');
    const publish = card.locator('[data-testid="action-publish"]');
    await expect.poll(() => publish.isEnabled()).toBe(true);
    await publish.click();
    const refused = page.locator('[data-testid="publish-error"]');
    await refused.waitFor();
    expect(await refused.textContent()).toContain('The customer must approve this video before it is published.');
    await shot(page, 'publish-refused-en-1280');
    await page.keyboard.press('Escape');

    // Ask for approval: the customer is e-mailed an /approve link.
    await ask.click();
    await page.locator('[data-testid="ask-approval-confirm"]').click();
    const item = panel.locator('[data-testid="approval-item"]').first();
    await expect.poll(() => item.getAttribute('data-state')).toBe('pending');
    expect(await item.locator('[data-testid="remind-approval"]').isDisabled()).toBe(true);
    expect(await item.locator('[data-testid="remind-approval-at"]').textContent()).toMatch(/You can remind them again on \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}\./);
    await card.locator('[data-testid="approval-awaiting"]').waitFor();
    const [first] = await approvalLinks(server, recorded.customerEmail, 1);

    // The customer asks for changes, with a comment.
    const customer = await browser.context.newPage();
    await customer.setViewportSize({ width: 375, height: 800 });
    await customer.goto(first!);
    await customer.locator('[data-testid="approval-video"]').waitFor();
    await shot(customer, 'customer-approval-en-375', true);
    await customer.locator('[data-testid="changes-form"] textarea').fill(COMMENT);
    // The form posts to its own page and comes back with ?done= (a refusal would stay on the refused page).
    await Promise.all([customer.waitForURL(/[?&]done=changes/, { timeout: 10_000 }), customer.locator('[data-testid="changes-form"] button[type="submit"]').click()]);
    await shot(customer, 'customer-changes-asked-en-375', true);

    // The comment appears on the detail page; Publish is still refused, with its reason.
    await page.reload();
    await expect.poll(() => item.getAttribute('data-state'), { timeout: 15_000 }).toBe('changes_requested');
    expect(await item.locator('[data-testid="approval-state"]').textContent()).toBe('Changes asked');
    expect(await item.locator('[data-testid="approval-comment"]').textContent()).toBe(COMMENT);
    await panel.scrollIntoViewIfNeeded();
    await shot(panel, 'approval-panel-en-1280');
    await publish.click();
    await refused.waitFor();
    expect(await refused.textContent()).toContain('The customer asked for changes to this video.');
    // The refusal offers the way forward: ask again.
    await refused.locator('[data-testid="publish-ask-approval"]').click();
    await page.locator('[data-testid="ask-approval-confirm"]').click();
    await expect.poll(() => item.getAttribute('data-state')).toBe('pending');
    const links = await approvalLinks(server, recorded.customerEmail, 2);
    const second = links.find((link) => link !== first)!;

    // The customer approves through the new link; Publish now publishes.
    await customer.goto(second);
    await Promise.all([customer.waitForURL(/[?&]done=approved/, { timeout: 10_000 }), customer.locator('[data-testid="approve-form"] button[type="submit"]').click()]);
    await page.reload();
    await expect.poll(() => item.getAttribute('data-state'), { timeout: 15_000 }).toBe('approved');
    expect(await card.locator('[data-testid="ask-approval"]').count()).toBe(0);
    await publish.click();
    await page.locator('[data-testid="publish-link"]').waitFor({ timeout: 15_000 });
    await page.keyboard.press('Escape');

    // The consent record tells it all, with the printable page.
    const record = page.locator('[data-testid="consent-record"]');
    await page.reload();
    // (After a reload the detail loads again, then the record: a loaded machine needs more than 5 s.)
    await expect
      .poll(async () => (await record.locator('[data-testid="consent-event"]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-kind')))).join(','), { timeout: 20_000 })
      .toBe('given,approval_requested,changes_requested,approval_requested,approved');
    await record.scrollIntoViewIfNeeded();
    await shot(record, 'consent-record-en-1280');
    await record.locator('[data-testid="consent-record-print"]').click();
    await page.locator('[data-testid="consent-record-page"]').waitFor();
    expect(await page.locator('[data-testid="consent-record-row"][data-kind="changes_requested"]').textContent()).toContain(COMMENT);
    await shot(page, 'consent-record-page-en-1280', true);

    // French, on a phone.
    await page.setViewportSize({ width: 375, height: 800 });
    await setLanguage(page, server, browser, 'fr');
    await page.locator('[data-testid="consent-record-page"]').waitFor();
    await shot(page, 'consent-record-page-fr-375', true);
    await page.goto(`${server.url}/dashboard/testimonials/${recorded.id}`);
    await panel.waitFor();
    expect(await item.locator('[data-testid="approval-state"]').textContent()).toBe('Approuvée');
    await card.scrollIntoViewIfNeeded();
    await shot(card, 'approval-card-fr-375');
    await panel.scrollIntoViewIfNeeded();
    await shot(panel, 'approval-panel-fr-375');
    await page.goto(`${server.url}/dashboard/settings`);
    await setting.waitFor();
    await setting.scrollIntoViewIfNeeded();
    await shot(page, 'settings-approval-fr-375');

    // Only the refusals the journey asked for reached the console.
    expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
    await customer.close();
    await page.close();
  });
});
