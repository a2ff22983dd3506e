import { z } from 'zod';

/** POST /api/client-errors: a crash report from the web app's error boundaries. Answer 202. */
export const ZClientErrorReport = z.object({
  message: z.string().trim().min(1, 'message is required').max(2000),
  stack: z.string().max(8000).optional(),
  url: z.string().max(2000),
  userAgent: z.string().max(500).optional(),
  release: z.string().max(100).optional(),
});
export type TClientErrorReport = z.infer<typeof ZClientErrorReport>;

export const ZClientErrorReportResponse = z.object({ received: z.literal(true) });
