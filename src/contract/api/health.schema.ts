/**
 * GET /api/health: `{ status }` only, 200 when every check (database, queue, storage, mail and, in a
 * process that runs media jobs, the speech engine) is ok, 503 when degraded. Which drivers run and the version are for the operator: the full report below is in
 * GET /api/ready with the metrics token (issue 15: anyone could read them here).
 */
import { z } from 'zod';

export const HEALTH_STATUSES = ['ok', 'degraded'] as const;
export const ZHealthStatus = z.enum(HEALTH_STATUSES);
export type THealthStatus = z.infer<typeof ZHealthStatus>;

export const ZHealthResponse = z.object({ status: ZHealthStatus });
export type THealthResponse = z.infer<typeof ZHealthResponse>;

/** The full health report (issue 2: database, queue, storage, mail; issue 8: transcription engine). */
export const ZHealthReport = z.object({
  status: ZHealthStatus,
  version: z.string(),
  uptime_s: z.number().min(0),
  checks: z.object({
    database: z.object({
      ok: z.boolean(),
      driver: z.enum(['pglite', 'postgres']),
      /** Round-trip of a trivial query; absent when the database did not answer. */
      latency_ms: z.number().min(0).optional(),
      error: z.string().optional(),
    }),
    queue: z.object({
      ok: z.boolean(),
      error: z.string().optional(),
    }),
    storage: z.object({
      ok: z.boolean(),
      driver: z.enum(['local', 's3']),
      error: z.string().optional(),
    }),
    mail: z.object({
      ok: z.boolean(),
      transport: z.enum(['outbox', 'smtp']),
      error: z.string().optional(),
    }),
    /** The transcription engine in use (issue 8), once that capability exists. */
    transcription: z
      .object({
        ok: z.boolean(),
        engine: z.string(),
        error: z.string().optional(),
      })
      .optional(),
  }),
});
export type THealthReport = z.infer<typeof ZHealthReport>;

/**
 * GET /api/ready (issue 9): 200 when the database, the storage and the queue answer; 503 in the error
 * shape `{ error, code }` naming what does not. For load balancers and orchestrators, which get
 * `{ status: 'ready' }`. With `Authorization: Bearer <METRICS_TOKEN>` the answer adds each check with
 * its driver and the full health report (version, drivers, mail transport, transcription engine).
 */
export const ZReadyChecks = z.object({
  database: z.object({ ok: z.literal(true), latency_ms: z.number().min(0) }),
  storage: z.object({ ok: z.literal(true), driver: z.enum(['local', 's3']) }),
  queue: z.object({ ok: z.literal(true) }),
});
export const ZReadyResponse = z.object({
  status: z.literal('ready'),
  checks: ZReadyChecks.optional(),
  health: ZHealthReport.optional(),
});
export type TReadyResponse = z.infer<typeof ZReadyResponse>;
