import { writeSync } from 'node:fs';

/**
 * Instants at which a test may have this process die as a crash would: SIGKILL, no shutdown, no
 * further statement. The reliability suite uses them to prove that work committed in a transaction
 * (the transactional outbox, issue 16) is done even when the process dies right after the commit.
 *
 * A test hook, not configuration: `TEST_CRASH_AFTER` is read once, here, when this module loads, and
 * the hook is inert when NODE_ENV=production whatever it says (the configuration also refuses to start
 * a production process that sets it, so that the mistake is seen).
 */
export const CRASH_POINTS = [
  /** A customer's answers, their transcode jobs and the e-mail committed (submissions.service). */
  'submission-committed',
  /** A studio render's job committed (studio.service). */
  'render-committed',
] as const;
export type CrashPointName = (typeof CRASH_POINTS)[number];

/** The point a process's environment arms, if any: none in production, none for an unknown name. */
export function armedCrashPoint(env: { NODE_ENV?: string | undefined; TEST_CRASH_AFTER?: string | undefined }): CrashPointName | undefined {
  if (env.NODE_ENV === 'production') return undefined;
  return CRASH_POINTS.find((point) => point === env.TEST_CRASH_AFTER);
}

// eslint-disable-next-line no-restricted-properties -- a test hook, read once and inert in production (issue 28)
const armed = armedCrashPoint(process.env);

/**
 * Call right after a transaction commits, before the next statement. Does nothing unless the test's
 * environment names this point; then it writes one line to stderr and kills the process at once.
 */
export function crashPoint(point: CrashPointName): void {
  if (armed !== point) return;
  writeSync(2, `${JSON.stringify({ level: 60, msg: 'crash point reached: killing this process', crashPoint: point, pid: process.pid })}\n`);
  process.kill(process.pid, 'SIGKILL');
}
