import type { THealthReport } from '../../../contract/api/health.schema.js';
import type { AppContext } from '../../context.js';
import { speechEngineProblem } from '../../media/toolchain-cache.js';
import { engineFor } from '../transcription/engines.js';

export interface CheckResult {
  ok: boolean;
  error?: string;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function check<T extends object>(run: () => Promise<T | void>, timeoutMs = 3000): Promise<CheckResult & Partial<T>> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await Promise.race([
      run(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { ok: true, ...(result ?? {}) } as CheckResult & Partial<T>;
  } catch (error) {
    return { ok: false, error: describe(error) } as CheckResult & Partial<T>;
  } finally {
    clearTimeout(timer);
  }
}

/** A remote SMTP check opens a connection: remember its answer for a while. */
let mailCache: { at: number; result: CheckResult } | undefined;
const MAIL_CHECK_TTL_MS = 60_000;

/**
 * Whether this process can transcribe: the engine starts and loads its model (pocketsphinx), or a
 * remote engine is configured. The answer is the start-up check's, then checked again every five
 * minutes (media/toolchain-cache.ts). An API process runs no media job (ROLE=api): nothing to check.
 */
async function speechCheck(ctx: AppContext): Promise<CheckResult> {
  if (ctx.config.role === 'api') return { ok: true };
  try {
    const problem = await speechEngineProblem(ctx.config);
    return problem ? { ok: false, error: `${problem.tool} cannot run; ${problem.install.debian}` } : { ok: true };
  } catch (error) {
    return { ok: false, error: describe(error) };
  }
}

/** The full report: for the operator only (GET /api/ready with the metrics token); /api/health tells its status. */
export async function getHealth(ctx: AppContext, version: string): Promise<THealthReport> {
  const mailCheck = async (): Promise<CheckResult> => {
    if (ctx.mailer.transport === 'smtp' && mailCache && Date.now() - mailCache.at < MAIL_CHECK_TTL_MS) return mailCache.result;
    const result = await check(() => ctx.mailer.ping(), 5000);
    mailCache = { at: Date.now(), result };
    return result;
  };
  const [database, queue, storage, mail, speech] = await Promise.all([
    check(async () => ({ latency_ms: await ctx.database.ping() })),
    check(() => ctx.queue.ping()),
    check(() => ctx.storage.ping()),
    mailCheck(),
    speechCheck(ctx),
  ]);
  const checks = {
    database: { ...database, driver: ctx.database.driver },
    queue,
    storage: { ...storage, driver: ctx.storage.driver },
    mail: { ...mail, transport: ctx.mailer.transport },
    transcription: { ...speech, engine: engineFor(ctx.config).name },
  };
  const ok = Object.values(checks).every((c) => c.ok);
  return {
    status: ok ? 'ok' : 'degraded',
    version,
    uptime_s: Math.round((Date.now() - ctx.startedAt) / 1000),
    checks,
  };
}
