import { writeSync } from 'node:fs';
import type { Config } from '../config.js';

/**
 * Instants at which a test may have this process die as a crash would: SIGKILL, no shutdown, no
 * further statement. `TEST_CRASH_AFTER` names one of them; the configuration refuses it when
 * NODE_ENV=production. The reliability suite uses them to prove that work committed in a transaction
 * (the transactional outbox, issue 16) is done even when the process dies right after the commit.
 */
export const CRASH_POINTS = [
  /** A customer's answers, their transcode jobs and the e-mail committed (submissions.service). */
  'submission-committed',
  /** A studio render's job committed (studio.service). */
  'render-committed',
] as const;
export type CrashPointName = (typeof CRASH_POINTS)[number];

/**
 * Call right after a transaction commits, before the next statement. Does nothing unless the
 * configuration names this point; then it writes one line to stderr and kills the process at once.
 */
export function crashPoint(ctx: { config: Pick<Config, 'testCrashAfter'> }, point: CrashPointName): void {
  if (ctx.config.testCrashAfter !== point) return;
  writeSync(2, `${JSON.stringify({ level: 60, msg: 'crash point reached: killing this process', crashPoint: point, pid: process.pid })}\n`);
  process.kill(process.pid, 'SIGKILL');
}
