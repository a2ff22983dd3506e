import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { ZReadyResponse } from "../../../contract/api/health.schema.js";
import { API } from "../../../contract/api/paths.js";
import type { AppContext } from "../../context.js";
import { sendError } from "../../http/errors.js";
import {
  currentContext,
  runWithContext,
  type RequestContext,
} from "../../lib/request-context.js";
import { getHealth } from "../health/health.service.js";
import { checkReadiness } from "./ready.service.js";

export const METRICS_PATH = "/metrics";

declare module "fastify" {
  interface FastifyRequest {
    /** What code run for this request sees (lib/request-context.ts). */
    requestContext: RequestContext | null;
  }
}

/**
 * On the root instance, before any route: every answer carries its request id (`x-request-id`, the id
 * in the logs), code run for the request sees it (log lines, jobs sent), and its latency is recorded
 * by route template.
 */
export function observeRequests(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest("requestContext", null);
  app.addHook("onRequest", (request, reply, done) => {
    const context: RequestContext = {
      requestId: request.id,
      bindings: { reqId: request.id },
    };
    request.requestContext = context;
    reply.header("x-request-id", request.id);
    runWithContext(context, done);
  });
  // Reading the body runs in the socket's context: enter the request's again before the handler.
  app.addHook("preValidation", (request, _reply, done) => {
    const context = request.requestContext;
    if (context && currentContext() !== context) runWithContext(context, done);
    else done();
  });
  app.addHook("onResponse", (request, reply, done) => {
    ctx.metrics.httpDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? "unmatched",
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** The bearer token of the request, if it sent one. */
const givenToken = (request: FastifyRequest) =>
  /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];

/** Whether the request carries METRICS_TOKEN (compared in constant time). */
function isOperator(token: string | undefined, given: string | undefined) {
  return (
    token !== undefined &&
    given !== undefined &&
    timingSafeEqual(digest(given), digest(token))
  );
}

/**
 * GET /api/ready, and GET /metrics (Prometheus text) behind METRICS_TOKEN: without it, a 404. Probes
 * get `{ status: 'ready' }`; the drivers, the version and the full health report only go to a caller
 * with the metrics token, because they tell an attacker which components to aim at.
 */
export function observabilityRoutes(ctx: AppContext, version: string) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.get(
      API.health.ready.route,
      { logLevel: "warn", schema: { response: { 200: ZReadyResponse } } },
      async (request, reply) => {
        reply.header("cache-control", "no-store");
        const given = givenToken(request);
        const operator = isOperator(ctx.config.metricsToken, given);
        if (given !== undefined && !operator) {
          return sendError(reply, 401, {
            error: "A valid metrics token is required for the detailed report.",
            code: "unauthorized",
          });
        }
        const readiness = await checkReadiness(ctx);
        if (readiness.ready) {
          if (!operator) return { status: "ready" as const };
          return {
            ...readiness.report,
            health: await getHealth(ctx, version),
          };
        }
        ctx.logger.warn({ failing: readiness.details }, "not ready");
        // Which part fails, never its internals (addresses, credentials): the details are in the log.
        return sendError(reply, 503, {
          error: `Not ready: ${readiness.failing.join(", ")} unreachable.`,
          code: "unavailable",
        });
      },
    );

    app.get(METRICS_PATH, { logLevel: "warn" }, async (request, reply) => {
      const token = ctx.config.metricsToken;
      if (!token)
        return sendError(reply, 404, {
          error: `Nothing here: GET ${METRICS_PATH}.`,
          code: "not_found",
        });
      if (!isOperator(token, givenToken(request))) {
        return sendError(reply, 401, {
          error: "A valid metrics token is required.",
          code: "unauthorized",
        });
      }
      const body = await ctx.metrics.registry.metrics();
      return reply
        .header("cache-control", "no-store")
        .type(ctx.metrics.registry.contentType)
        .send(body);
    });
  };
}
