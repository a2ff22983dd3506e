import Fastify, { type FastifyInstance } from "fastify";
import {
  serializerCompiler,
  validatorCompiler,
} from "fastify-type-provider-zod";
import { readVersion } from "../../app.js";
import type { AppContext } from "../../context.js";
import { registerErrorHandling, sendError } from "../../http/errors.js";
import { fastifyTrustProxy } from "../../http/trust-proxy.js";
import { healthRoutes } from "../health/health.routes.js";
import {
  observabilityRoutes,
  observeRequests,
} from "./observability.routes.js";

/**
 * The only HTTP of a worker process (ROLE=worker): /api/health, /api/ready and /metrics, for the
 * orchestrator and Prometheus. Every other path answers 404: the product's API is on the API processes.
 */
export async function buildWorkerApp(
  ctx: AppContext,
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.logger,
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    trustProxy: fastifyTrustProxy(ctx.config.trustProxy),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  observeRequests(app, ctx);
  const version = await readVersion();
  await app.register(healthRoutes(ctx, version));
  await app.register(observabilityRoutes(ctx, version));
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, {
      error: `A worker serves only /api/health, /api/ready and /metrics: ${request.method} ${request.url.split("?")[0]}.`,
      code: "not_found",
    }),
  );
  return app;
}
