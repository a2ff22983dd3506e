import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../../contract/api/paths.js';
import {
  STRIPE_SIGNATURE_HEADER,
  ZCheckoutSessionBody,
  ZCheckoutSessionResponse,
  ZConfirmSessionBody,
  ZConfirmSessionResponse,
  ZWebhookResponse,
} from '../../../contract/api/payment.schema.js';
import { CREDIT_PACKAGES, formatPrice } from '../../../contract/constants.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany } from '../../http/company-scope.js';
import { PRODUCT_FONT_STACK, productFontFaces } from '../../http/product-font.js';
import { byIp, limits } from '../../http/rate-limit.js';
import { AppError } from '../../lib/errors.js';
import { html, raw, type SafeHtml } from '../../lib/html.js';
import {
  confirmSession,
  createCheckoutSession,
  finishTestCheckout,
  getTestCheckout,
  handleWebhook,
  TEST_CHECKOUT_COOKIE,
  TEST_CHECKOUT_PREFIX,
  testCheckoutProof,
} from './payments.service.js';

const pageLang = (request: FastifyRequest): 'en' | 'fr' => (/(?:^|;\s*)i18next=fr/.test(request.headers.cookie ?? '') ? 'fr' : 'en');

function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

const TEXT = {
  en: {
    title: 'Test checkout',
    banner: 'TEST MODE — no real payment is made and no card is charged.',
    explain: 'Stripe is not configured on this installation, so purchases run in test mode. Pay adds the credits at once, exactly as a real payment would.',
    pkg: (n: string, c: number) => `${n} package · ${c} credits`,
    for: (c: string) => `For ${c}`,
    pay: (p: string) => `Pay ${p} (test)`,
    cancel: 'Cancel',
    gone: 'This test payment does not exist or is already finished.',
    notYours: 'This test payment was opened by another account or in another browser. Start the purchase again from your dashboard.',
    closed: 'This test payment was cancelled: it can no longer be paid. Start a new purchase from your dashboard.',
    back: 'Back to the dashboard',
  },
  fr: {
    title: 'Paiement de test',
    banner: "MODE TEST — aucun paiement réel n'est effectué et aucune carte n'est débitée.",
    explain: "Stripe n'est pas configuré sur cette installation : les achats se font en mode test. Payer ajoute les crédits immédiatement, comme un vrai paiement.",
    pkg: (n: string, c: number) => `Pack ${n} · ${c} crédits`,
    for: (c: string) => `Pour ${c}`,
    pay: (p: string) => `Payer ${p} (test)`,
    cancel: 'Annuler',
    gone: "Ce paiement de test n'existe pas ou est déjà terminé.",
    notYours: "Ce paiement de test a été ouvert par un autre compte ou dans un autre navigateur. Recommencez l'achat depuis votre tableau de bord.",
    closed: "Ce paiement de test a été annulé : il ne peut plus être payé. Recommencez l'achat depuis votre tableau de bord.",
    back: 'Retour au tableau de bord',
  },
} as const;

const page = (lang: 'en' | 'fr', title: string, body: SafeHtml): string => html`<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex, nofollow"><title>${title}</title>
<style>${raw(productFontFaces())}
body{margin:0;font-family:${raw(PRODUCT_FONT_STACK)};background:#f7f7f9;color:#111827}
.banner{background:#fef3c7;color:#92400e;border-bottom:1px solid #fcd34d;padding:12px 16px;text-align:center;font-weight:600;font-size:14px}
main{max-width:440px;margin:48px auto;padding:0 16px}.card{background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:28px}
h1{font-size:20px;margin:0 0 8px}p{color:#4b5563;font-size:14px;line-height:1.5;margin:0 0 16px}.amount{font-size:32px;font-weight:700;margin:8px 0 4px;color:#111827}
button{width:100%;font:inherit;font-weight:600;font-size:16px;border-radius:8px;padding:12px;cursor:pointer;margin-top:8px}
.pay{background:#6d28d9;color:#fff;border:1px solid #6d28d9}.cancel{background:#fff;color:#374151;border:1px solid #d1d5db}
button:focus-visible{outline:3px solid #c4b5fd;outline-offset:2px}a{color:#6d28d9}</style></head><body>${body}</body></html>`.value;

const notice = (lang: 'en' | 'fr', status: 'gone' | 'notYours' | 'closed') => {
  const t = TEXT[lang];
  return page(lang, t.title, html`<div class="banner">${t.banner}</div><main><div class="card"><h1>${t.title}</h1><p>${t[status]}</p><a href="/dashboard/payment">${t.back}</a></div></main>`);
};

/**
 * The test-mode checkout (development and test installations without Stripe keys): a labelled stand-in
 * for Stripe's page. It is a document, so it cannot send the dashboard's bearer token: the signed-in
 * call that created the checkout set a cookie naming this session and its company, and the page and its
 * buttons answer only the browser holding it. Not registered at all where the test mode is off.
 */
function testCheckoutRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.get(`${TEST_CHECKOUT_PREFIX}:sessionId`, async (request, reply) => {
      const lang = pageLang(request);
      const t = TEXT[lang];
      const { sessionId } = z.object({ sessionId: z.string().max(200) }).parse(request.params);
      const found = await getTestCheckout(ctx, sessionId, readCookie(request, TEST_CHECKOUT_COOKIE));
      reply.asDocument().type('text/html; charset=utf-8').header('cache-control', 'no-store');
      if (found.found === 'not_yours') return reply.status(403).send(notice(lang, 'notYours'));
      if (found.found === 'none' || found.payment.status !== 'open') return reply.status(404).send(notice(lang, 'gone'));
      const pkg = CREDIT_PACKAGES.find((p) => p.id === found.payment.packageId)!;
      const price = formatPrice(found.payment.amountTotal / 100, lang);
      const action = `${TEST_CHECKOUT_PREFIX}${encodeURIComponent(sessionId)}`;
      return reply.send(
        page(
          lang,
          t.title,
          html`<div class="banner" role="status" data-testid="test-mode-banner">${t.banner}</div><main><div class="card">
<h1>${t.pkg(pkg.name, pkg.credits)}</h1><p>${t.for(found.companyName)}</p>
<div class="amount">${price}</div><p>${t.explain}</p>
<form method="post" action="${action}/pay"><button class="pay" type="submit" data-testid="test-pay">${t.pay(price)}</button></form>
<form method="post" action="${action}/cancel"><button class="cancel" type="submit" data-testid="test-cancel">${t.cancel}</button></form>
</div></main>`,
        ),
      );
    });

    await app.register(async (scope) => {
      // HTML forms post urlencoded; the buttons carry no fields.
      scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, _body, done) => done(null, {}));
      scope.post(
        `${TEST_CHECKOUT_PREFIX}:sessionId/:action`,
        { preHandler: [limits(scope, [{ name: 'test-checkout', max: 30, timeWindow: '10 minutes', key: byIp }])] },
        async (request, reply) => {
          const { sessionId, action } = z.object({ sessionId: z.string().max(200), action: z.enum(['pay', 'cancel']) }).parse(request.params);
          try {
            const next = await finishTestCheckout(ctx, { sessionId, action, proof: readCookie(request, TEST_CHECKOUT_COOKIE) });
            return reply.redirect(next, 303);
          } catch (error) {
            // The page's own buttons get a page back; other callers the one error shape.
            if (!(error instanceof AppError) || !/text\/html/.test(request.headers.accept ?? '')) throw error;
            const lang = pageLang(request);
            const kind = error.code === 'no_permission' ? 'notYours' : error.status === 409 ? 'closed' : 'gone';
            return reply.asDocument().status(error.status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(notice(lang, kind));
          }
        },
      );
    });
  };
}

export function paymentsRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const authenticated = requireAuth(ctx);
    const secureCookie = ctx.config.appUrl.startsWith('https://') ? '; Secure' : '';

    app.post(
      API.payment.checkoutSession.route,
      {
        onRequest: [authenticated],
        preHandler: [limits(app, [{ name: 'checkout', max: 30, timeWindow: '10 minutes', key: (r) => `company:${r.auth?.companyId}` }])],
        schema: { body: ZCheckoutSessionBody, response: { 200: ZCheckoutSessionResponse } },
      },
      async (request, reply) => {
        const companyId = callerCompany(request);
        const { url, testSessionId } = await createCheckoutSession(ctx, { companyId, priceId: request.body.priceId });
        if (testSessionId) {
          // The proof the test page and its buttons require (see testCheckoutRoutes).
          const proof = testCheckoutProof(ctx, testSessionId, companyId);
          reply.header(
            'set-cookie',
            `${TEST_CHECKOUT_COOKIE}=${proof}; Path=${TEST_CHECKOUT_PREFIX}${testSessionId}; Max-Age=3600; HttpOnly; SameSite=Strict${secureCookie}`,
          );
        }
        return { url };
      },
    );

    app.post(
      API.payment.confirmSession.route,
      { onRequest: [authenticated], schema: { body: ZConfirmSessionBody, response: { 200: ZConfirmSessionResponse } } },
      async (request) => confirmSession(ctx, { companyId: callerCompany(request), sessionId: request.body.sessionId }),
    );

    // Only where the test mode is on: a production process without Stripe keys has no such routes (404),
    // and one with Stripe sells through Stripe alone.
    if (ctx.config.payments === 'test') await app.register(testCheckoutRoutes(ctx));

    // Stripe's webhook: the signature is checked on the raw body, so this scope keeps it as bytes.
    await app.register(async (scope) => {
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
      scope.withTypeProvider<ZodTypeProvider>().post(
        API.payment.webhook.route,
        { bodyLimit: 512 * 1024, schema: { response: { 200: ZWebhookResponse } } },
        async (request) => {
          const signature = request.headers[STRIPE_SIGNATURE_HEADER];
          await handleWebhook(ctx, {
            rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.from(''),
            signature: typeof signature === 'string' ? signature : undefined,
          });
          return { received: true as const };
        },
      );
    });
  };
}
