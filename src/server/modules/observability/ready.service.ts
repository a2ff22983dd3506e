import type { TReadyResponse } from "../../../contract/api/health.schema.js";
import type { AppContext } from "../../context.js";

const within = async <T>(
  what: string,
  run: () => Promise<T>,
  ms: number,
): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      run(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${what}: no answer within ${ms} ms`)),
          ms,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
};

export type Readiness =
  | { ready: true; report: TReadyResponse }
  | { ready: false; failing: string[]; details: Record<string, string> };

/**
 * Whether this process can serve: its database, its storage and the job queue all answer (each within
 * a few seconds). Unlike /api/health, mail and transcription do not count: a slow mail server must not
 * take API processes out of a load balancer.
 */
export async function checkReadiness(
  ctx: AppContext,
  timeoutMs = 3000,
): Promise<Readiness> {
  const [database, storage, queue] = await Promise.allSettled([
    within("database", () => ctx.database.ping(), timeoutMs),
    within("storage", () => ctx.storage.ping(), timeoutMs),
    within("queue", () => ctx.queue.ping(), timeoutMs),
  ]);
  if (
    database.status === "fulfilled" &&
    storage.status === "fulfilled" &&
    queue.status === "fulfilled"
  ) {
    return {
      ready: true,
      report: {
        status: "ready",
        checks: {
          database: { ok: true, latency_ms: database.value },
          storage: { ok: true, driver: ctx.storage.driver },
          queue: { ok: true },
        },
      },
    };
  }
  const failing: string[] = [];
  const details: Record<string, string> = {};
  for (const [what, result] of [
    ["database", database],
    ["storage", storage],
    ["queue", queue],
  ] as const) {
    if (result.status === "rejected") {
      failing.push(what);
      details[what] =
        result.reason instanceof Error
          ? result.reason.message
          : String(result.reason);
    }
  }
  return { ready: false, failing, details };
}
