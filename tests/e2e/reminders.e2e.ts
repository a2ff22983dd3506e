import { mkdir, copyFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWithinCivilHours, localTime } from '../../src/server/modules/reminders/schedule.js';
import { openBrowser, screenshot, setLanguage, watchErrors, type BrowserSession } from './support/browser.js';
import { signInInBrowser, signUpCompany, waitForMailLink, type Company } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * Automatic reminders (issue 30) in Chromium against the built app, its worker and its outbox. The
 * schedule is driven with a controlled clock through the development route `POST /dev/reminders/run
 * { now }`, which runs the very sweep the scheduled job runs, in the server, on its database (decision
 * 194). The company sets its reminders in Settings; a request gets a manual reminder from the dashboard,
 * then: no automatic one within 24 hours of it, one at the first instant after; the next one at its
 * day, none outside civil hours; the customer opens the reminder's visible unsubscribe link, confirms,
 * and no reminder follows; the request detail says so. The e-mails carry RFC 8058's headers.
 * Screenshots of the settings section and of the unsubscribe page, 375 and 1280 px, en and fr.
 */

const SHOTS_DIR = path.resolve('docs/screenshots/collect');
const DAY = 86_400_000;
/** Zones with an offset for most hours of the day: one of them has civil hours at any moment. */
const ZONES = [
  'Pacific/Honolulu', 'America/Anchorage', 'America/Los_Angeles', 'America/Denver', 'America/Chicago', 'America/New_York',
  'America/Sao_Paulo', 'Atlantic/South_Georgia', 'Atlantic/Cape_Verde', 'UTC', 'Europe/Paris', 'Europe/Athens', 'Europe/Moscow',
  'Asia/Dubai', 'Asia/Karachi', 'Asia/Dhaka', 'Asia/Bangkok', 'Asia/Shanghai', 'Asia/Tokyo', 'Australia/Brisbane', 'Pacific/Noumea', 'Pacific/Fiji',
];

interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  links: string[];
}

/** A picture of what the window shows (the dashboard's header and sidebar are fixed: a whole-page picture would draw them mid-page). */
async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await mkdir(SHOTS_DIR, { recursive: true });
  await copyFile(await screenshot(page, name, { fullPage }), path.join(SHOTS_DIR, `${name}.png`));
}

/** The settings section whole on a phone: a window tall enough, the section just under the fixed header. */
async function shotSection(section: Locator, name: string): Promise<void> {
  const page = section.page();
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: size.width, height: 1150 });
  await section.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 76));
  await shot(page, name, false);
  await page.setViewportSize(size);
}


describe('automatic reminders and unsubscribing', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let company: Company;

  const outbox = async (to: string): Promise<OutboxMessage[]> =>
    (await (await fetch(`${server.url}/dev/outbox/messages.json?to=${encodeURIComponent(to)}`)).json()) as OutboxMessage[];
  const reminders = async (to: string) => (await outbox(to)).filter((m) => /^Reminder|^Rappel/.test(m.subject));
  /** Waits until `to` has `count` reminder e-mails (the worker sends them from the queue). */
  const expectReminders = async (to: string, count: number) => {
    for (let i = 0; i < 80; i += 1) {
      if ((await reminders(to)).length >= count) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    // A moment more, so that an extra one would be seen.
    await new Promise((r) => setTimeout(r, 500));
    expect((await reminders(to)).length).toBe(count);
  };
  const sweep = async (now: Date): Promise<string[]> => {
    const res = await fetch(`${server.url}/dev/reminders/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ now: now.toISOString() }) });
    expect(res.status).toBe(200);
    return ((await res.json()) as { reminded: string[] }).reminded;
  };

  beforeAll(async () => {
    server = await startServer();
    browser = await openBrowser({ locale: 'en-US' });
    company = await signUpCompany(server, { prefix: 'reminders', lang: 'en' });
    await company.api('PUT', '/api/user/complete-onboarding', {});
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sends reminders at their times under a controlled clock, none within 24 h of a manual one, none outside civil hours, none after unsubscribe', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);

    // Settings: the defaults, then three reminders (1, 3 and 5 days) in a zone where tomorrow at this time is civil.
    await page.goto(`${server.url}/dashboard/settings`);
    const card = page.locator('[data-testid="reminder-settings"]');
    await card.locator('[data-testid="reminder-day-2"]').waitFor();
    expect(await card.locator('[data-testid="reminder-day-1"]').inputValue()).toBe('3');
    expect(await card.locator('[data-testid="reminder-day-2"]').inputValue()).toBe('7');
    expect(await card.locator('[data-testid="reminder-time-zone"]').inputValue()).toBe('Europe/Paris');
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'reminders-settings-1280-en', false);
    await page.setViewportSize({ width: 375, height: 812 });
    await shotSection(card, 'reminders-settings-375-en');
    await setLanguage(page, server, browser, 'fr');
    await card.locator('[data-testid="reminder-day-2"]').waitFor();
    expect(await card.innerText()).toContain('Relances automatiques');
    await shotSection(card, 'reminders-settings-375-fr');
    await page.setViewportSize({ width: 1280, height: 900 });
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'reminders-settings-1280-fr', false);
    await setLanguage(page, server, browser, 'en');

    const soon = Date.now() + DAY;
    const zone = ZONES.find((z) => [0, 1, 2, 3].every((h) => isWithinCivilHours(new Date(soon + h * 3_600_000), z)) && localTime(new Date(soon), z).hour >= 10)!;
    expect(zone).toBeTruthy();
    // Day values are typed; a bad value is refused in place with its reason.
    await card.locator('[data-testid="reminder-day-1"]').fill('9');
    await card.locator('[data-testid="reminder-save"]').click();
    expect(await card.innerText()).toContain('later than the reminder before');
    await card.locator('[data-testid="reminder-day-1"]').fill('1');
    await card.locator('[data-testid="reminder-day-2"]').fill('3');
    await card.locator('[data-testid="reminder-add-day"]').click();
    await card.locator('[data-testid="reminder-day-3"]').fill('5');
    await card.locator('[data-testid="reminder-time-zone"]').selectOption(zone);
    await card.locator('[data-testid="reminder-save"]').click();
    await page.waitForSelector('.Toastify__toast--success >> text=Automatic reminders saved.');
    expect(await company.api('GET', '/api/user/reminder-settings')).toEqual({ reminder_days: [1, 3, 5], time_zone: zone });

    // A request by e-mail: it takes the company's time zone.
    const customer = `reminded.${Date.now()}@client.test`;
    const questionId = (await company.api<{ id: string }>('POST', '/api/questions/add', { company_id: company.companyId, text: 'What changed for you?', order_position: 1 })).id;
    const { testimonial } = await company.api<{ testimonial: { id: string; created_at: string; time_zone: string } }>('POST', '/api/testimonials/request', {
      customer_email: customer,
      customer_name: 'Robin Lefèvre',
      question_ids: [questionId],
      language: 'english',
    });
    expect(testimonial.time_zone).toBe(zone);
    const created = Date.parse(testimonial.created_at);
    await waitForMailLink(server, customer, '/testimonial/submit/');

    // A day early: nothing.
    expect(await sweep(new Date(created + DAY - 60_000))).toEqual([]);

    // A manual reminder from the dashboard.
    await page.goto(`${server.url}/dashboard/request/${testimonial.id}`);
    await page.click('[data-testid="request-detail-remind"]');
    await page.click('[data-testid="confirm-dialog-confirm"]');
    await page.waitForSelector('.Toastify__toast--success');
    await expectReminders(customer, 1);
    const manualAt = Date.parse((await company.api<{ testimonial: { last_reminder_sent: string } }>('GET', `/api/testimonials/request-safe/${testimonial.id}?company_id=${company.companyId}`)).testimonial.last_reminder_sent);

    // Reminder 1 is due at created + 1 day, but the manual one went out less than 24 hours before: it waits.
    const dueButRecent = new Date(created + DAY + Math.floor((manualAt - created) / 2));
    expect(dueButRecent.getTime()).toBeLessThan(manualAt + DAY);
    expect(isWithinCivilHours(dueButRecent, zone)).toBe(true);
    expect(await sweep(dueButRecent)).toEqual([]);
    // 24 hours after the manual one: it goes, once.
    const first = new Date(manualAt + DAY + 1000);
    expect(await sweep(first)).toEqual([testimonial.id]);
    expect(await sweep(new Date(first.getTime() + 60_000))).toEqual([]);
    await expectReminders(customer, 2);

    // Reminder 2 at created + 3 days: not a minute before, and not outside civil hours.
    const day3 = created + 3 * DAY;
    expect(await sweep(new Date(day3 - 60_000))).toEqual([]);
    let night = day3;
    while (isWithinCivilHours(new Date(night), zone)) night += 15 * 60_000;
    expect(await sweep(new Date(night))).toEqual([]);
    let morning = night;
    while (!isWithinCivilHours(new Date(morning), zone)) morning += 15 * 60_000;
    expect(localTime(new Date(morning), zone).hour).toBe(9);
    expect(await sweep(new Date(morning))).toEqual([testimonial.id]);
    await expectReminders(customer, 3);

    // The reminder e-mail: RFC 8058 headers and a visible link, the same address.
    const [latest] = await reminders(customer);
    const raw = await (await fetch(`${server.url}/dev/outbox/${latest!.id}/raw`)).text();
    // Long headers are folded (RFC 5322): unfold the header block as a mail client does.
    const head = raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ');
    const header = /^List-Unsubscribe: +<([^>]+)>$/m.exec(head);
    expect(header, raw.slice(0, 2000)).not.toBeNull();
    expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    const visible = latest!.links.find((l) => l.includes('/unsubscribe/'))!;
    expect(visible).toBe(header![1]);

    // The customer opens the visible link (phone), confirms, and is told.
    const customerPage = await browser.context.newPage();
    const customerErrors = watchErrors(customerPage);
    await customerPage.setViewportSize({ width: 375, height: 812 });
    await customerPage.goto(visible);
    await customerPage.waitForSelector('[data-testid="unsubscribe-ask"]');
    expect(await customerPage.title()).toContain('Stop reminders from');
    await shot(customerPage, 'unsubscribe-page-375-en');
    await customerPage.setViewportSize({ width: 1280, height: 800 });
    await shot(customerPage, 'unsubscribe-page-1280-en');
    await customerPage.click('[data-testid="unsubscribe-button"]');
    await customerPage.waitForSelector('[data-testid="unsubscribe-done"]');
    expect(await customerPage.innerText('[data-testid="unsubscribe-done"]')).toContain('You are unsubscribed');
    await shot(customerPage, 'unsubscribe-done-1280-en');

    // Reminder 3 would be due at created + 5 days: nothing goes to an unsubscribed address.
    let day5 = created + 5 * DAY;
    while (!isWithinCivilHours(new Date(day5), zone)) day5 += 15 * 60_000;
    expect(await sweep(new Date(day5))).toEqual([]);
    expect(await sweep(new Date(day5 + 2 * DAY))).toEqual([]);
    await expectReminders(customer, 3);

    // The request detail says so, and offers no reminder.
    await page.reload();
    await page.waitForSelector('[data-testid="request-detail-unsubscribed"]');
    expect(await page.innerText('[data-testid="request-detail-unsubscribed"]')).toContain('This customer unsubscribed');
    expect(await page.locator('[data-testid="request-detail-remind"]').count()).toBe(0);
    await shot(page, 'reminders-request-unsubscribed-1280-en', false);
    await setLanguage(page, server, browser, 'fr');
    await page.waitForSelector('[data-testid="request-detail-unsubscribed"]');
    expect(await page.innerText('[data-testid="request-detail-unsubscribed"]')).toContain('Ce client s’est désabonné');
    await page.setViewportSize({ width: 375, height: 812 });
    await shot(page, 'reminders-request-unsubscribed-375-fr', false);

    // A French request: its invitation's unsubscribe page speaks French.
    const client = `francais.${Date.now()}@client.test`;
    await company.api('POST', '/api/testimonials/request', { customer_email: client, customer_name: 'Léa', question_ids: [questionId], language: 'french' });
    const frLink = await waitForMailLink(server, client, '/unsubscribe/');
    await customerPage.goto(frLink);
    await customerPage.waitForSelector('[data-testid="unsubscribe-ask"]');
    expect(await customerPage.innerText('h1')).toContain('Ne plus recevoir de relances');
    await shot(customerPage, 'unsubscribe-page-1280-fr');
    await customerPage.setViewportSize({ width: 375, height: 812 });
    await shot(customerPage, 'unsubscribe-page-375-fr');

    expect(errors).toEqual([]);
    expect(customerErrors).toEqual([]);
  }, 90_000);
});
