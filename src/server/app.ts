import type { TRole } from '../contract/api/members.schema.js';
import { routeRole } from './http/route-roles.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './context.js';
import { registerErrorHandling, sendError } from './http/errors.js';
import { registerRateLimits, type WindowCounters } from './http/rate-limit.js';
import { fastifyTrustProxy } from './http/trust-proxy.js';
import { applySecurityHeaders } from './http/security-headers.js';
import { registerCompression } from './http/compression.js';
import { isAppPagePath, registerWebApp } from './http/web-app.js';
import { WEB_DIST_DIR, ROOT_DIR } from './lib/paths.js';
import { appConfigRoutes } from './modules/app-config/app-config.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { clientErrorRoutes } from './modules/client-errors/client-errors.routes.js';
import { questionsRoutes } from './modules/questions/questions.routes.js';
import { requestsRoutes } from './modules/requests/requests.routes.js';
import { submissionsRoutes } from './modules/submissions/submissions.routes.js';
import { testimonialsRoutes } from './modules/testimonials/testimonials.routes.js';
import { mediaRoutes } from './modules/media/media.routes.js';
import { paymentsRoutes } from './modules/payments/payments.routes.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { jobsRoutes } from './modules/jobs/jobs.routes.js';
import { studioRoutes } from './modules/studio/studio.routes.js';
import { transcriptionRoutes } from './modules/transcription/transcription.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { remindersRoutes } from './modules/reminders/reminders.routes.js';
import { unsubscribeRoutes } from './modules/reminders/unsubscribe.routes.js';
import { devRemindersRoutes } from './modules/dev/reminders.routes.js';
import { outboxRoutes } from './modules/dev/outbox.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { observabilityRoutes, observeRequests } from './modules/observability/observability.routes.js';
// Publish (issue 19): share pages, embeds, oEmbed and the company's publications.
import { publicationsRoutes } from './modules/publications/publications.routes.js';
import { viewsRoutes } from './modules/publications/views.routes.js';
import { wallRoutes } from './modules/publications/wall.routes.js';
// The customer stays in control (issue 29): their pages, and the company's early deletion of withdrawn media.
import { customerRoutes } from './modules/consent/customer.routes.js';
import { retentionRoutes } from './modules/consent/retention.routes.js';
import { approvalsRoutes } from './modules/consent/approvals.routes.js';
import { consentRecordRoutes } from './modules/consent/record.routes.js';
import { collectionRoutes } from './modules/collection/collection.routes.js';
import { funnelRoutes } from './modules/funnel/funnel.routes.js';
// Integrations (issue 32): API keys and the versioned API.
import { membersRoutes } from './modules/members/members.routes.js';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.js';
import { v1DocsRoutes } from './modules/v1/v1-docs.routes.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { activityRoutes } from './modules/activity/activity.routes.js';
import { v1Routes } from './modules/v1/v1.routes.js';

export interface RegisteredRoute {
  method: string;
  url: string;
  /** The lowest role allowed, for a dashboard route that requires a session (http/route-roles.ts). */
  role?: TRole | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app (HEAD twins left out), in registration order. */
    routeTable: readonly RegisteredRoute[];
  }
}

export interface BuildAppOptions {
  /** The built web app to serve; defaults to dist/web. Absent folder: the API alone. */
  webDir?: string;
  /** The rate-limit store; tests give a small one to reach its bound quickly. */
  rateCounters?: WindowCounters;
}

export async function readVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(path.join(ROOT_DIR, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** Builds the HTTP app from its parts. No `listen` here: tests drive it through `app.inject`. */
export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    loggerInstance: ctx.logger,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Every route as registered, so that the security suite covers a new route without being told.
  const routeTable: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat().filter((method) => method !== 'HEAD');
    // Each dashboard route's lowest role (issue 32), which requireAuth checks on every call.
    const role = route.config?.role ?? methods.map((method) => routeRole(method, route.url)).find(Boolean);
    if (role) route.config = { ...route.config, role };
    for (const method of methods) routeTable.push({ method, url: route.url, role });
  });
  app.decorate('routeTable', routeTable);
  // The API speaks JSON (and multipart where a call uploads files); a text body is a mistake, answered 415.
  app.removeContentTypeParser(['text/plain']);
  // Calls with an 'empty body' (complete-onboarding, pay) may still announce JSON: read that as no body.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') done(null, undefined);
    else parseJson(request, text, done);
  });

  const https = config.appUrl.startsWith('https://');
  // With S3, media play and download from presigned addresses of the bucket.
  const mediaOrigins = config.s3 && config.s3.delivery === 'redirect' ? [config.s3.publicOrigin] : [];
  applySecurityHeaders(app, { https, mediaOrigins });
  registerRateLimits(app, ctx.database, options.rateCounters);
  // Before every route: the plugin adds its hook to each route as it is registered.
  await registerCompression(app);
  await app.register(multipart, {
    limits: { fileSize: config.uploadMaxBytes, files: 50, fields: 200, fieldSize: 4096, parts: 260 },
    throwFileSizeLimit: false,
  });

  registerErrorHandling(app);
  app.decorateRequest('auth', null);
  observeRequests(app, ctx);

  const version = await readVersion();
  await app.register(healthRoutes(ctx, version));
  await app.register(observabilityRoutes(ctx, version));
  await app.register(clientErrorRoutes());
  await app.register(authRoutes(ctx));
  await app.register(appConfigRoutes(ctx));
  await app.register(questionsRoutes(ctx));
  await app.register(requestsRoutes(ctx));
  await app.register(usersRoutes(ctx));
  await app.register(testimonialsRoutes(ctx));
  await app.register(mediaRoutes(ctx));
  await app.register(paymentsRoutes(ctx));
  await app.register(settingsRoutes(ctx));
  await app.register(jobsRoutes(ctx));
  await app.register(studioRoutes(ctx));
  await app.register(transcriptionRoutes(ctx));
  await app.register(submissionsRoutes(ctx));
  await app.register(publicationsRoutes(ctx));
  await app.register(viewsRoutes(ctx));
  await app.register(wallRoutes(ctx));
  await app.register(customerRoutes(ctx));
  await app.register(retentionRoutes(ctx));
  await app.register(approvalsRoutes(ctx));
  await app.register(consentRecordRoutes(ctx));
  await app.register(collectionRoutes(ctx));
  await app.register(funnelRoutes(ctx));
  await app.register(remindersRoutes(ctx));
  await app.register(unsubscribeRoutes(ctx));
  await app.register(apiKeysRoutes(ctx));
  await app.register(membersRoutes(ctx));
  await app.register(v1DocsRoutes(ctx));
  await app.register(webhooksRoutes(ctx));
  await app.register(activityRoutes(ctx));
  await app.register(v1Routes(ctx));
  if (!config.isProduction) await app.register(outboxRoutes(ctx));
  if (!config.isProduction) await app.register(devRemindersRoutes(ctx));

  const sendPage = await registerWebApp(app, options.webDir ?? WEB_DIST_DIR);
  if (sendPage) app.get('/', (_request, reply) => sendPage(reply, '/'));

  // Unknown /api paths answer JSON, never the web app; page routes get their page: the customer's
  // link its own (recording.html), every other the single-page app.
  app.setNotFoundHandler(async (request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && isAppPagePath(urlPath);
    if (isPage && sendPage) return sendPage(reply, urlPath);
    return sendError(reply, 404, {
      error: urlPath.startsWith('/api')
        ? `No such API call: ${request.method} ${urlPath}.`
        : `Nothing here: ${request.method} ${urlPath}.`,
      code: 'not_found',
    });
  });

  return app;
}
