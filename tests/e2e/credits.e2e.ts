import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  openBrowser,
  screenshot,
  watchErrors,
  type BrowserSession,
} from "./support/browser.js";
import {
  recordTestimonial,
  signInInBrowser,
  signUpCompany,
  type Company,
  type RecordedTestimonial,
} from "./support/fixtures.js";
import { startServer, type RunningServer } from "./support/server.js";

/**
 * The credits journey in Chromium: buy the Medium package through the payment screen and the
 * test-mode checkout (25 more credits in the header, no reload), pay one credit to view a testimonial
 * recorded through the real save call, see both rows in the transactions, and play an answer on the
 * testimonial's page.
 */
describe("credits", () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let company: Company;
  let testimonial: RecordedTestimonial;
  let pending: { testimonial: { id: string } };
  let page: Page;
  let errors: string[];

  const headerCredits = (target: Page) =>
    target.locator('[data-testid="header-credits"]');
  const waitForHeaderCredits = async (target: Page, count: number) => {
    await target.waitForFunction(
      (expected) => {
        const text =
          document.querySelector('[data-testid="header-credits"]')
            ?.textContent ?? "";
        return new RegExp(`(^|\\D)${expected}(\\D|$)`).test(text);
      },
      count,
      { timeout: 15_000 },
    );
  };
  const setLanguage = async (target: Page, lang: "en" | "fr") => {
    await target
      .context()
      .addCookies([{ name: "i18next", value: lang, url: server.url }]);
    await target.evaluate((l) => localStorage.setItem("i18nextLng", l), lang);
  };
  const noHorizontalScroll = (target: Page) =>
    target.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
  const serverError = {
    status: 500,
    contentType: "application/json",
    body: JSON.stringify({ error: "Internal error", code: "server_error" }),
  };
  /** The browser logs a failed load (status 500) made on purpose by a step. */
  const dropExpectedErrors = () => {
    const kept = errors.filter((e) => !/status of 500/.test(e));
    errors.splice(0, errors.length, ...kept);
  };
  const row = (target: Page) =>
    target.locator(
      `[data-testid="testimonial-row"][data-id="${testimonial.id}"]`,
    );

  beforeAll(async () => {
    server = await startServer();
    company = await signUpCompany(server, { prefix: "credits" });
    // The onboarding tour would cover the page: this journey is about credits.
    await company.api("PUT", "/api/user/complete-onboarding", {});
    testimonial = await recordTestimonial(server, company, {
      customerName: "Claire Dubois",
      questions: [
        "What did you like most about working with us?",
        "Would you recommend us, and why?",
      ],
    });
    // A request the customer has not answered yet: its row offers no view.
    pending = await company.api<{ testimonial: { id: string } }>(
      "POST",
      "/api/testimonials/request",
      {
        customer_email: `waiting.${Date.now()}@client.test`,
        customer_name: "Marc Lefèvre",
        customer_position: "Operations Manager",
        question_ids: testimonial.questions.map((q) => q.id),
        language: "english",
      },
    );
    browser = await openBrowser({ locale: "en-US" });
    page = await browser.context.newPage();
    errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("buys the Medium package through the test-mode checkout and sees 25 more credits in the header", async () => {
    await page.goto(`${server.url}/dashboard/payment`);
    await page.waitForSelector('[data-testid="package-medium"]');
    await waitForHeaderCredits(page, 1);
    expect(await headerCredits(page).textContent()).toMatch(/1 credit$/);
    expect(
      await page
        .locator(
          '[data-testid="package-medium"] [data-testid="package-recommended"]',
        )
        .count(),
    ).toBe(1);
    expect(await page.textContent('[data-testid="package-medium"]')).toContain(
      "€250",
    );
    expect(
      await page.textContent('[data-testid="package-extra_large"]'),
    ).toContain("€900");
    await screenshot(page, "credits-payment-en-1280");

    // A checkout that cannot start: the dialog says so with an alert and stays open to try again.
    await page.route("**/api/payment/checkout-session", (route) =>
      route.fulfill(serverError),
    );
    await page.click('[data-testid="buy-small"]');
    await page.click('[data-testid="buy-confirm"]');
    await page.waitForSelector(
      '[data-testid="buy-dialog"] [data-testid="payment-error"]',
    );
    expect(page.url()).toBe(`${server.url}/dashboard/payment`);
    await page.unroute("**/api/payment/checkout-session");
    await page.keyboard.press("Escape");
    await page.waitForSelector('[data-testid="buy-dialog"]', {
      state: "detached",
    });
    dropExpectedErrors();

    await page.click('[data-testid="buy-medium"]');
    await page.waitForSelector('[data-testid="buy-dialog"]');
    expect(await page.textContent('[data-testid="buy-package"]')).toBe(
      "Medium",
    );
    expect(await page.textContent('[data-testid="buy-credits"]')).toBe(
      "25 credits",
    );
    expect(await page.textContent('[data-testid="buy-total"]')).toBe("€250");
    await page.click('[data-testid="buy-confirm"]');

    await page.waitForSelector('[data-testid="test-mode-banner"]');
    expect(page.url()).toContain("/api/payment/test-checkout/");
    await page.click('[data-testid="test-pay"]');
    await page.waitForURL(/\/dashboard\/payment\?success=true&session_id=/);
    await page.waitForSelector('[data-testid="payment-success"]');
    await waitForHeaderCredits(page, 26);
    expect(await headerCredits(page).textContent()).toMatch(/26 credits$/);
    expect(await page.textContent('[data-testid="payment-balance"]')).toContain(
      "26",
    );
    await screenshot(page, "credits-payment-success-en-1280");

    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForSelector('[data-testid="payment-success"]');
    expect(await noHorizontalScroll(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "credits-payment-en-375");

    await setLanguage(page, "fr");
    await page.goto(`${server.url}/dashboard/payment?cancel=true`);
    await page.waitForSelector('[data-testid="payment-cancel"]');
    expect(await page.textContent('[data-testid="package-medium"]')).toContain(
      "250\u00a0€",
    );
    expect(await noHorizontalScroll(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "credits-payment-fr-375");
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, "credits-payment-fr-1280");
    await setLanguage(page, "en");
    expect(errors).toEqual([]);
  });

  it("pays one credit to view the recorded testimonial through the dialog", async () => {
    await page.goto(`${server.url}/dashboard/testimonials`);
    await row(page).waitFor();
    expect(await row(page).getAttribute("data-status")).toBe("completed");
    expect(await row(page).getAttribute("data-paid")).toBe("false");
    expect(await row(page).textContent()).toContain(testimonial.customerName);
    expect(await row(page).textContent()).toContain(testimonial.customerEmail);
    expect(
      await page.getAttribute(
        '[data-testid="testimonials-list"]',
        "data-layout",
      ),
    ).toBe("table");
    const waiting = page.locator(
      `[data-testid="testimonial-row"][data-id="${pending.testimonial.id}"]`,
    );
    expect(await waiting.getAttribute("data-status")).toBe("pending");
    expect(
      await waiting.locator('[data-testid="view-unavailable"]').isDisabled(),
    ).toBe(true);
    expect(await waiting.locator('[data-testid="pay-to-view"]').count()).toBe(
      0,
    );
    await waitForHeaderCredits(page, 26);
    await screenshot(page, "credits-testimonials-en-1280");

    // The list cannot load: the error state offers a retry, which brings the rows back.
    await page.route("**/api/testimonials/requests?*", (route) =>
      route.fulfill(serverError),
    );
    await page.reload();
    await page.waitForSelector('[data-testid="testimonials-error"]');
    await screenshot(page, "credits-testimonials-error-en-1280");
    await page.unroute("**/api/testimonials/requests?*");
    await page.click('[data-testid="testimonials-error"] button');
    await row(page).waitFor();
    dropExpectedErrors();

    await row(page).locator('[data-testid="pay-to-view"]').click();
    await page.waitForSelector('[data-testid="pay-dialog"]');
    expect(await page.textContent('[data-testid="pay-dialog"]')).toContain(
      "One credit will be debited",
    );
    await screenshot(page, "credits-pay-dialog-en-1280", { fullPage: false });
    await page.click('[data-testid="pay-confirm"]');

    // The testimonial paid for opens (issue 27): it was paid for to be watched.
    await page.waitForURL(`**/dashboard/testimonials/${testimonial.id}`);
    await page.waitForSelector('[data-testid="testimonial-detail-back"]');
    expect(await page.locator('[data-testid="pay-dialog"]').count()).toBe(0);
    await page.goBack();
    await page.waitForSelector(
      `[data-testid="testimonial-row"][data-id="${testimonial.id}"][data-paid="true"]`,
    );
    await row(page).locator('[data-testid="view-testimonial"]').waitFor();
    expect(await row(page).locator('[data-testid="pay-to-view"]').count()).toBe(
      0,
    );
    await waitForHeaderCredits(page, 25);
    expect(await headerCredits(page).textContent()).toMatch(/25 credits$/);

    await page.click('[data-testid="testimonials-refresh"]');
    await row(page).locator('[data-testid="view-testimonial"]').waitFor();
    await screenshot(page, "credits-testimonials-paid-en-1280");

    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForSelector(
      '[data-testid="testimonials-list"][data-layout="cards"]',
    );
    expect(await noHorizontalScroll(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "credits-testimonials-en-375");

    await setLanguage(page, "fr");
    await page.reload();
    await row(page).waitFor();
    expect(await page.textContent("h1")).toBe("Témoignages");
    expect(await noHorizontalScroll(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "credits-testimonials-fr-375");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.waitForSelector(
      '[data-testid="testimonials-list"][data-layout="table"]',
    );
    await screenshot(page, "credits-testimonials-fr-1280");
    await setLanguage(page, "en");
    expect(errors).toEqual([]);
  });

  it("lists the purchase and the testimonial payment, linked to the testimonial", async () => {
    await page.goto(`${server.url}/dashboard/transaction`);
    await page.waitForSelector(
      '[data-testid="transaction-row"][data-type="testimonial_payment"]',
    );
    const purchase = page.locator(
      '[data-testid="transaction-row"][data-type="credit_purchase"]',
    );
    expect(await purchase.count()).toBe(1);
    expect(await purchase.textContent()).toContain("250.00");
    const payment = page.locator(
      '[data-testid="transaction-row"][data-type="testimonial_payment"]',
    );
    expect(await payment.count()).toBe(1);
    const link = payment.locator(
      `a[href="/dashboard/testimonials/${testimonial.id}"]`,
    );
    expect(await link.textContent()).toBe(testimonial.customerName);
    expect(errors).toEqual([]);
  });

  it("opens the testimonial and plays an answer", async () => {
    await page.goto(`${server.url}/dashboard/testimonials`);
    await row(page).locator('[data-testid="view-testimonial"]').click();
    await page.waitForURL(
      `${server.url}/dashboard/testimonials/${testimonial.id}`,
    );
    const video = page.locator('video[data-testid="answer-video"]').first();
    await video.waitFor({ timeout: 30_000 });
    await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      await element.play();
    });
    await page.waitForFunction(
      () => {
        const element = document.querySelector<HTMLVideoElement>(
          'video[data-testid="answer-video"]',
        );
        return element !== null && element.currentTime > 0.3;
      },
      undefined,
      { timeout: 20_000 },
    );
    expect(
      await video.evaluate((element: HTMLVideoElement) => element.currentTime),
    ).toBeGreaterThan(0.3);
    expect(errors).toEqual([]);
  });

  it("says purchases are not available on an installation that sells none, in both languages", async () => {
    // What a production installation without Stripe keys tells the web app (payments.security.ts covers
    // the server: no test checkout there, and a checkout answers payments_disabled).
    await page.route("**/api/public/app-config", async (route) => {
      const response = await route.fetch();
      await route.fulfill({
        response,
        json: { ...(await response.json()), payments: "disabled" },
      });
    });
    for (const lang of ["en", "fr"] as const) {
      await setLanguage(page, lang);
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.url}/dashboard/payment`);
        const notice = page.locator('[data-testid="payments-disabled"]');
        await notice.waitFor();
        expect(await notice.textContent()).toMatch(
          lang === "en"
            ? /Purchases are not available.*Contact \S+@\S+/
            : /Les achats ne sont pas disponibles.*Contactez \S+@\S+/,
        );
        expect(
          await page.locator('[data-testid="buy-medium"]').isDisabled(),
        ).toBe(true);
        expect(await page.locator('[data-testid="buy-dialog"]').count()).toBe(
          0,
        );
        expect(await noHorizontalScroll(page)).toBeLessThanOrEqual(0);
        await screenshot(page, `credits-payments-disabled-${lang}-${width}`);
      }
    }
    await page.unroute("**/api/public/app-config");
    await setLanguage(page, "en");
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(errors).toEqual([]);
  });
});
